/** A managed network (CMS owner) as the platform shows it (never its e-mail). */
export interface NetworkOwner {
  oid: string;
  name: string | null;
  type: string;
  industry: string;
}
