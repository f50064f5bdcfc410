import { signedFields } from '@rm/runtime';

/** What an appeal link vouches for: this player may see and appeal this sanction until `expiresAt`. */
export interface AppealLinkClaim {
  sanctionId: string;
  userId: string;
  /** Epoch ms after which the link is refused. */
  expiresAt: number;
}

export type AppealLinkCheck = { ok: true; claim: AppealLinkClaim } | { ok: false; why: 'forged' | 'expired' };

/** Marks the token's format and purpose: a token of another kind signed with the same key never reads as one. */
const FORMAT = 'appeal-link/1';

/**
 * Signed, expiring appeal links (APPEAL_LINK_SECRET): the claim as base64url JSON, a dot, its
 * HMAC-SHA256, compared in constant time. Nothing is stored: the signature proves the service made
 * it. The claim is signed, not hidden: it names the player's own sanction and id, no more.
 */
export function appealLinkTokens(secret: string) {
  const tokens = signedFields(secret);
  return {
    issue(claim: AppealLinkClaim): string {
      return tokens.seal([FORMAT, claim.sanctionId, claim.userId, claim.expiresAt]);
    },
    check(token: string, now = Date.now()): AppealLinkCheck {
      const fields = tokens.open(token);
      if (!fields || fields.length !== 4 || fields[0] !== FORMAT) return { ok: false, why: 'forged' };
      const [, sanctionId, userId, expiresAt] = fields;
      if (typeof sanctionId !== 'string' || typeof userId !== 'string' || typeof expiresAt !== 'number') return { ok: false, why: 'forged' };
      if (now > expiresAt) return { ok: false, why: 'expired' };
      return { ok: true, claim: { sanctionId, userId, expiresAt } };
    },
  };
}
export type AppealLinkTokens = ReturnType<typeof appealLinkTokens>;
