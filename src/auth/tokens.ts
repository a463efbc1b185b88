/**
 * Access tokens: JWT signed with HS256 (the algorithm is pinned on verify, so `alg: none` and other
 * algorithms are refused), secret `JWT_SECRET`, lifetime `TOKEN_TTL` (decisions.md). Payload: `sub` = phone,
 * `role` = the current role.
 */
import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { isRole, type Role } from './roles.ts';

export interface TokenClaims {
  phone: string;
  role: Role;
}

/**
 * Issues and verifies access tokens (HS256, pinned on verify) signed with `secret` (JWT_SECRET); `ttl` is a
 * jsonwebtoken `expiresIn` value such as "7d" (TOKEN_TTL). Claims: `sub` = phone, `role` = the current role.
 */
export class TokenService {
  /** The HMAC key, made once: handing jsonwebtoken a string makes it build a key on every verify (~50x slower). */
  private readonly secret: KeyObject;

  constructor(
    secret: string,
    private readonly ttl: string,
  ) {
    this.secret = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  /** A signed token for `phone` in `role`, expiring after TOKEN_TTL. */
  issue(claims: TokenClaims): string {
    return jwt.sign({ role: claims.role }, this.secret, {
      algorithm: 'HS256',
      subject: claims.phone,
      expiresIn: this.ttl as jwt.SignOptions['expiresIn'],
    });
  }

  /** The claims of a valid token, or null for anything forged, expired, malformed or of another algorithm. */
  verify(token: string): TokenClaims | null {
    try {
      const p = jwt.verify(token, this.secret, { algorithms: ['HS256'] });
      if (typeof p !== 'object' || typeof p.sub !== 'string' || !isRole(p.role)) return null;
      return { phone: p.sub, role: p.role };
    } catch {
      return null;
    }
  }
}
