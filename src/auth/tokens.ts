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

  /**
   * Tokens verified lately, with their claims and expiry (ms): a worker sends the same token with every request,
   * and verifying it again gives the same answer until it expires. Bounded; cleared when full.
   */
  private readonly verified = new Map<string, { claims: TokenClaims; expiresAt: number }>();
  static readonly MAX_VERIFIED = 10_000;

  /** The claims of a valid token, or null for anything forged, expired, malformed or of another algorithm. */
  verify(token: string): TokenClaims | null {
    const hit = this.verified.get(token);
    if (hit) {
      if (Date.now() < hit.expiresAt) return hit.claims;
      this.verified.delete(token);
    }
    try {
      const p = jwt.verify(token, this.secret, { algorithms: ['HS256'] });
      if (typeof p !== 'object' || typeof p.sub !== 'string' || !isRole(p.role)) return null;
      const claims: TokenClaims = { phone: p.sub, role: p.role };
      if (typeof p.exp === 'number' && p.nbf === undefined) {
        if (this.verified.size >= TokenService.MAX_VERIFIED) this.verified.clear();
        this.verified.set(token, { claims, expiresAt: p.exp * 1000 });
      }
      return claims;
    } catch {
      return null;
    }
  }
}
