/**
 * Login tickets: when a login yields several registered phones or a phone with several roles, the
 * client gets a short-lived signed ticket naming the phones it may choose from; completing the login with
 * `{ticket, phone?, role?}` can only pick from them, so the client can never name a phone itself.
 *
 * A ticket is a JWT signed with HS256 (pinned) under a key derived from JWT_SECRET for this purpose only, so
 * a ticket is never accepted as an access token and an access token never as a ticket. Lifetime 5 minutes on
 * the injected clock. Single use: `consumeTicket` records its id; a second use is refused.
 */
import { createHmac, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Clock } from '../clock.ts';
import type { Queryable } from '../db/transaction.ts';
import { AppError } from '../errors.ts';

export const TICKET_TTL_SECONDS = 300;
const AUDIENCE = 'platform-login-ticket';

export interface LoginTicketClaims {
  openid: string;
  /** The registered phones the ticket allows (one when only the role is left to choose). */
  phones: string[];
}

export interface VerifiedTicket extends LoginTicketClaims {
  jti: string;
  expiresAt: Date;
}

/** AppError 401 LOGIN_TICKET_INVALID: the login ticket is expired, forged or malformed. */
export const ticketInvalid = () => new AppError(401, 'LOGIN_TICKET_INVALID', '登录已超时或无效，请重新登录');

/**
 * Issues and verifies login tickets: HS256 JWTs (audience `platform-login-ticket`) under a key derived from
 * `jwtSecret`, valid TICKET_TTL_SECONDS (300 s) on the injected clock. Single use is enforced by `consumeTicket`.
 */
export class LoginTickets {
  private readonly key: string;
  constructor(
    jwtSecret: string,
    private readonly clock: Clock,
  ) {
    this.key = createHmac('sha256', jwtSecret).update('login-ticket/v1').digest('hex');
  }

  /** A new ticket for `claims`, valid TICKET_TTL_SECONDS from now. */
  issue(claims: LoginTicketClaims): { ticket: string; expiresAt: Date } {
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    const exp = iat + TICKET_TTL_SECONDS;
    const ticket = jwt.sign({ oid: claims.openid, phones: claims.phones, iat, exp, jti: randomUUID(), aud: AUDIENCE }, this.key, {
      algorithm: 'HS256',
    });
    return { ticket, expiresAt: new Date(exp * 1000) };
  }

  /** The claims of a valid, unexpired ticket. Throws 401 LOGIN_TICKET_INVALID otherwise. */
  verify(ticket: string): VerifiedTicket {
    let p: jwt.JwtPayload | string;
    try {
      p = jwt.verify(ticket, this.key, {
        algorithms: ['HS256'],
        audience: AUDIENCE,
        clockTimestamp: Math.floor(this.clock.now().getTime() / 1000),
      });
    } catch {
      throw ticketInvalid();
    }
    if (
      typeof p !== 'object' ||
      typeof p.oid !== 'string' ||
      typeof p.jti !== 'string' ||
      typeof p.exp !== 'number' ||
      !Array.isArray(p.phones) ||
      p.phones.length === 0 ||
      !p.phones.every((x: unknown) => typeof x === 'string')
    ) {
      throw ticketInvalid();
    }
    return { openid: p.oid, phones: p.phones, jti: p.jti, expiresAt: new Date(p.exp * 1000) };
  }
}

/** Marks the ticket used. Throws 401 LOGIN_TICKET_USED when it was used before. */
export async function consumeTicket(q: Queryable, t: VerifiedTicket, now: Date): Promise<void> {
  await q.query(`DELETE FROM login_tickets_used WHERE expires_at < $1`, [now]);
  const r = await q.query(`INSERT INTO login_tickets_used (jti, expires_at) VALUES ($1, $2) ON CONFLICT (jti) DO NOTHING RETURNING jti`, [
    t.jti,
    t.expiresAt,
  ]);
  if (r.rows.length === 0) throw new AppError(401, 'LOGIN_TICKET_USED', '这次登录已完成，请重新登录');
}
