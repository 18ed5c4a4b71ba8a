import { Injectable } from '@nestjs/common';
import { returning, Tx } from '@agp/database';

import { TENANT_AUTH_SCHEMA } from '../database/tokens';
import { AuthorizeParams } from './authorize-params';

const S = TENANT_AUTH_SCHEMA;

export interface UpstreamLeg {
  providerId: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface AuthorizationRequestRow {
  id: string;
  params: AuthorizeParams;
  upstream: UpstreamLeg | null;
  isCompleted: boolean;
  /** I23: who signed in, while the request waits for their consent (an MCP client's). */
  awaitingConsent: { who: SignedIn; consentHash: string } | null;
}

export interface SignedIn {
  tenantId: string;
  userId: string;
  sessionId: string;
  authTime: Date;
}

export interface CodeRow extends SignedIn {
  requestId: string;
  clientId: string;
  redirectUri: string;
  scope: string;
  nonce: string | null;
  codeChallenge: string;
  resource: string | null;
  wasConsumed: boolean;
  hasExpired: boolean;
}

export interface SessionRow extends SignedIn {
  identityProviderId: string | null;
}

export interface RefreshRow {
  familyId: string;
  sessionId: string | null;
  tenantId: string;
  userId: string;
  clientId: string;
  scope: string;
  resource: string | null;
  wasRotated: boolean;
  expiresAt: Date;
}

/** Every query of browser sign-in; handles arrive hashed. Read as the system (see the migration). */
@Injectable()
export class SignInRepository {
  async insertRequest(tx: Tx, id: string, params: AuthorizeParams, expiresAt: Date): Promise<void> {
    await tx.query(
      `INSERT INTO ${S}.authorization_requests
         (id, client_id, redirect_uri, scope, state, nonce, code_challenge, tenant_hint, expires_at,
          resource)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        id,
        params.clientId,
        params.redirectUri,
        params.scope,
        params.state,
        params.nonce,
        params.codeChallenge,
        params.tenantHint,
        expiresAt,
        params.resource,
      ],
    );
  }

  /** A request still open for sign-in (not expired, no code yet), locked for this transaction. */
  async findOpenRequest(tx: Tx, id: string): Promise<AuthorizationRequestRow | null> {
    const rows: Array<Record<string, never>> = await tx.query(
      `SELECT * FROM ${S}.authorization_requests
        WHERE id = $1 AND expires_at > now() AND code_hash IS NULL FOR UPDATE`,
      [id],
    );
    const row = rows[0] as Record<string, unknown> | undefined;
    if (!row) {
      return null;
    }
    return {
      id: row.id as string,
      params: {
        clientId: row.client_id as string,
        redirectUri: row.redirect_uri as string,
        scope: row.scope as string,
        state: row.state as string | null,
        nonce: row.nonce as string | null,
        codeChallenge: row.code_challenge as string,
        tenantHint: row.tenant_hint as string | null,
        prompt: null,
        resource: row.resource as string | null,
      },
      upstream: (row.upstream as UpstreamLeg | null) ?? null,
      isCompleted: false,
      awaitingConsent: row.consent_hash
        ? {
            consentHash: row.consent_hash as string,
            who: {
              tenantId: row.tenant_id as string,
              userId: row.user_id as string,
              sessionId: row.session_id as string,
              authTime: row.auth_time as Date,
            },
          }
        : null,
    };
  }

  /** I23: the person has signed in; the request waits for their consent, proved by the form's token. */
  async awaitConsent(tx: Tx, id: string, who: SignedIn, consentHash: string): Promise<void> {
    await tx.query(
      `UPDATE ${S}.authorization_requests
          SET tenant_id = $2, user_id = $3, session_id = $4, auth_time = $5, consent_hash = $6,
              upstream = NULL
        WHERE id = $1`,
      [id, who.tenantId, who.userId, who.sessionId, who.authTime, consentHash],
    );
  }

  async setUpstream(tx: Tx, id: string, upstream: UpstreamLeg): Promise<void> {
    await tx.query(`UPDATE ${S}.authorization_requests SET upstream = $2 WHERE id = $1`, [
      id,
      upstream,
    ]);
  }

  /** The request is answered: a code (stored hashed) for whoever signed in. */
  async complete(
    tx: Tx,
    id: string,
    codeHash: string,
    who: SignedIn,
    codeExpiresAt: Date,
  ): Promise<void> {
    await tx.query(
      `UPDATE ${S}.authorization_requests
          SET code_hash = $2, tenant_id = $3, user_id = $4, session_id = $5, auth_time = $6,
              code_expires_at = $7, upstream = NULL
        WHERE id = $1`,
      [id, codeHash, who.tenantId, who.userId, who.sessionId, who.authTime, codeExpiresAt],
    );
  }

  /** I23: a refused consent ends the request; nothing can answer it any more. */
  async abandon(tx: Tx, id: string): Promise<void> {
    await tx.query(
      `UPDATE ${S}.authorization_requests SET expires_at = now(), consent_hash = NULL WHERE id = $1`,
      [id],
    );
  }

  /** Marks the code used and answers the row as it was; a second use sees `wasConsumed`. */
  async consumeCode(tx: Tx, codeHash: string): Promise<CodeRow | null> {
    const rows = await returning(
      tx,
      `UPDATE ${S}.authorization_requests r SET consumed_at = coalesce(r.consumed_at, now())
         FROM (SELECT id, consumed_at FROM ${S}.authorization_requests WHERE code_hash = $1 FOR UPDATE) old
        WHERE r.id = old.id
        RETURNING r.*, old.consumed_at IS NOT NULL AS was_consumed,
                  r.code_expires_at <= now() AS has_expired`,
      [codeHash],
    );
    const row = rows[0];
    if (!row) {
      return null;
    }
    return {
      requestId: row.id as string,
      clientId: row.client_id as string,
      redirectUri: row.redirect_uri as string,
      scope: row.scope as string,
      nonce: row.nonce as string | null,
      codeChallenge: row.code_challenge as string,
      resource: row.resource as string | null,
      tenantId: row.tenant_id as string,
      userId: row.user_id as string,
      sessionId: row.session_id as string,
      authTime: row.auth_time as Date,
      wasConsumed: row.was_consumed as boolean,
      hasExpired: row.has_expired as boolean,
    };
  }

  async insertSession(tx: Tx, idHash: string, session: SessionRow, expiresAt: Date): Promise<void> {
    await tx.query(
      `INSERT INTO ${S}.sign_in_sessions
         (id_hash, id, tenant_id, user_id, identity_provider_id, auth_time, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        idHash,
        session.sessionId,
        session.tenantId,
        session.userId,
        session.identityProviderId,
        session.authTime,
        expiresAt,
      ],
    );
  }

  async findSession(tx: Tx, idHash: string): Promise<SessionRow | null> {
    const rows: Array<Record<string, unknown>> = await tx.query(
      `SELECT id, tenant_id, user_id, identity_provider_id, auth_time FROM ${S}.sign_in_sessions
        WHERE id_hash = $1 AND expires_at > now()`,
      [idHash],
    );
    const row = rows[0];
    return row
      ? {
          sessionId: row.id as string,
          tenantId: row.tenant_id as string,
          userId: row.user_id as string,
          identityProviderId: row.identity_provider_id as string | null,
          authTime: row.auth_time as Date,
        }
      : null;
  }

  /** Sign-out: the session and every refresh token handed out under it. */
  async removeSession(tx: Tx, sessionId: string): Promise<void> {
    await tx.query(`DELETE FROM ${S}.refresh_tokens WHERE session_id = $1`, [sessionId]);
    await tx.query(`DELETE FROM ${S}.sign_in_sessions WHERE id = $1`, [sessionId]);
  }

  async insertRefresh(
    tx: Tx,
    tokenHash: string,
    row: Omit<RefreshRow, 'wasRotated'>,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO ${S}.refresh_tokens
         (token_hash, family_id, session_id, tenant_id, user_id, client_id, scope, expires_at,
          resource)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        tokenHash,
        row.familyId,
        row.sessionId,
        row.tenantId,
        row.userId,
        row.clientId,
        row.scope,
        row.expiresAt,
        row.resource,
      ],
    );
  }

  /** Marks the token rotated and answers it as it was, locked: two refreshes with one token serialise here. */
  async rotateRefresh(tx: Tx, tokenHash: string): Promise<RefreshRow | null> {
    const rows = await returning(
      tx,
      `UPDATE ${S}.refresh_tokens t SET rotated_at = coalesce(t.rotated_at, now())
         FROM (SELECT token_hash, rotated_at FROM ${S}.refresh_tokens WHERE token_hash = $1 FOR UPDATE) old
        WHERE t.token_hash = old.token_hash AND t.expires_at > now()
        RETURNING t.*, old.rotated_at IS NOT NULL AS was_rotated`,
      [tokenHash],
    );
    const row = rows[0];
    return row
      ? {
          familyId: row.family_id as string,
          sessionId: row.session_id as string | null,
          tenantId: row.tenant_id as string,
          userId: row.user_id as string,
          clientId: row.client_id as string,
          scope: row.scope as string,
          resource: row.resource as string | null,
          wasRotated: row.was_rotated as boolean,
          expiresAt: row.expires_at as Date,
        }
      : null;
  }

  /** A replayed refresh token or code: the whole family goes (RFC 9700 §4.14.2). */
  async revokeFamily(tx: Tx, familyId: string): Promise<void> {
    await tx.query(`DELETE FROM ${S}.refresh_tokens WHERE family_id = $1`, [familyId]);
  }

  /** Housekeeping: rows whose every use has passed. */
  async pruneExpired(tx: Tx): Promise<void> {
    await tx.query(
      `DELETE FROM ${S}.authorization_requests WHERE expires_at < now() - interval '1 day'`,
    );
    await tx.query(`DELETE FROM ${S}.sign_in_sessions WHERE expires_at < now()`);
    await tx.query(`DELETE FROM ${S}.refresh_tokens WHERE expires_at < now()`);
  }
}
