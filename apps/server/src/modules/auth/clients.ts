import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { verifySecret } from '../../platform/auth/password';
import { type Db, schema } from '../../platform/db';
import { OAuthError } from '../../platform/http/errors';
import { notDeleted } from '../../platform/sql';

export type Client = typeof schema.client.$inferSelect;

/** `Authorization: Basic base64(clientId:secret)` checked against the client table; 401 otherwise. */
export async function authenticateClient(db: Db, req: FastifyRequest): Promise<Client> {
  const header = req.headers.authorization ?? '';
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  if (!m) throw new OAuthError(401, 'clientAuthFailed');
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const sep = decoded.indexOf(':');
  if (sep <= 0) throw new OAuthError(401, 'clientAuthFailed');
  const clientId = decoded.slice(0, sep);
  const secret = decoded.slice(sep + 1);
  const [row] = await db
    .select()
    .from(schema.client)
    .where(
      and(
        eq(schema.client.clientId, clientId),
        notDeleted(schema.client.isDeleted),
        eq(schema.client.status, 1),
      ),
    )
    .limit(1);
  if (!row || !(await verifySecret(row.clientSecret, secret))) throw new OAuthError(401, 'clientAuthFailed');
  return row;
}

export function clientGrants(c: Client): Set<string> {
  return new Set(
    c.authorizedGrantTypes
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
}
