/**
 * Who acts (a neutral shape shared by the HTTP edge, commands and queries): the token's person and role, and the
 * request's id for the events' metadata. The person's name is never taken from here: commands read it with their
 * other facts (commands/facts.ts), so the events carry the name personnel holds.
 */
export interface Actor {
  readonly phone: string;
  readonly role: string;
  readonly requestId?: string;
}
