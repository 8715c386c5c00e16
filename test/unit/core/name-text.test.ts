import { describe, expect, it } from 'vitest';
import { nameKey } from '../../../src/core/name-key.js';
import { nameProblem, nameText } from '../../../src/core/schemas/name-text.js';

describe('nameKey', () => {
  it('folds case fully and normalises', () => {
    expect(nameKey('Café')).toBe(nameKey('CAFÉ'));
    expect(nameKey('Cafe\u0301')).toBe(nameKey('café'));
    expect(nameKey('Straße')).toBe(nameKey('STRASSE'));
    expect(nameKey('ὈΔΥΣΣΕΎΣ')).toBe(nameKey('ὀδυσσεύς'));
    expect(nameKey('Gaming')).not.toBe(nameKey('Gamimg'));
  });
});

describe('nameText', () => {
  const schema = nameText({ max: 10 });
  it('normalises to NFC and trims before measuring', () => {
    expect(schema.parse('  Cafe\u0301  ')).toBe('Café');
    expect(schema.safeParse('e\u0301'.repeat(10)).success).toBe(true);
    expect(schema.safeParse('x'.repeat(11)).success).toBe(false);
  });
  it('says which rule a name breaks', () => {
    expect(nameProblem('ok')).toBeUndefined();
    expect(nameProblem('a\u0000b')).toMatch(/control character \(U\+0000\)/);
    expect(nameProblem('\u00ad\u2060')).toMatch(/no visible character/);
    expect(nameProblem('a\u2066b')).toMatch(/bidirectional control \(U\+2066\)/);
    expect(nameProblem('\udc00')).toMatch(/unpaired surrogate \(U\+DC00\)/);
    expect(nameProblem('😀')).toBeUndefined();
  });
});
