/**
 * The form under which two names count as the same: NFC, then full Unicode case folding (as
 * upper-then-lower case mapping does it: "Café" = "CAFÉ", "Straße" = "STRASSE", "ς" = "σ").
 */
export function nameKey(name: string): string {
  return name.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
}
