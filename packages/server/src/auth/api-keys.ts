import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import ipaddr from 'ipaddr.js';
import { ApiError, ENDPOINT_SCOPES, endpoints, KEY_SCOPES, type ApiKey, type CreateApiKeyRequest, type KeyScope } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Repositories } from '../db/repositories/index.js';
import type { ApiKeyRow, KeyWithOwner } from '../db/repositories/api-keys.js';
import { isoNow, type Clock } from '../jobs/clock.js';
import { actorOf, type Principal } from './principal.js';
import { AuditService } from '../audit/service.js';
import { TwoFactorService } from './two-factor.js';

const KEY = /^gar_(\d{1,10})_([A-Za-z0-9_-]{43})$/;
const DEFAULT_LIFETIME_MS = 90 * 86_400_000;
/** A key's last use is written at most this often (not on every request). */
const USE_NOTED_EVERY_MS = 60_000;

/** Scopes only an admin's key may hold: every endpoint in them needs the admin role. */
const ADMIN_SCOPES: ReadonlySet<KeyScope> = new Set(
  KEY_SCOPES.filter((scope) => {
    const members = Object.entries(ENDPOINT_SCOPES).filter(([, s]) => s === scope);
    return members.length > 0 && members.every(([id]) => endpoints[id as keyof typeof endpoints].access === 'admin');
  }),
);

export const isApiKey = (token: string): boolean => token.startsWith('gar_');
const digest = (secret: string) => createHash('sha256').update(secret).digest();

function inRanges(address: string, cidrs: string[]): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  return cidrs.some((cidr) => {
    if (!ipaddr.isValidCIDR(cidr)) return false;
    const [range, bits] = ipaddr.parseCIDR(cidr);
    const candidate = ip.kind() === range.kind() ? ip : ip.kind() === 'ipv4' ? (ip as ipaddr.IPv4).toIPv4MappedAddress() : null;
    return candidate !== null && candidate.match([range, bits] as never);
  });
}

/**
 * API keys: `gar_<id>_<secret>`, shown once, kept as a SHA-256 of the secret and compared in constant
 * time. A key acts as its owner as the owner is now (a demoted owner's keys lose those rights at once, a
 * deleted owner's stop), narrowed to its scopes, its servers and its address ranges.
 */
@injectable()
export class ApiKeyService {
  private readonly revoked = new Set<(id: number) => void>();

  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TwoFactorService) private readonly twoFactor: TwoFactorService,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  async create(owner: Principal, input: CreateApiKeyRequest): Promise<ApiKey & { key: string }> {
    const admin = owner.role === 'admin';
    const beyond = input.scopes.filter((s) => ADMIN_SCOPES.has(s) && !admin);
    if (beyond.length) throw new ApiError('FORBIDDEN', `a key cannot do more than its owner: ${beyond.join(', ')} needs the admin role`);
    let expires: string | null;
    if (input.expires_at === null) {
      if (!admin) throw new ApiError('FORBIDDEN', 'only an admin may make a key that never expires');
      expires = null;
    } else if (input.expires_at === undefined) {
      expires = new Date(this.clock.now() + DEFAULT_LIFETIME_MS).toISOString();
    } else {
      const at = Date.parse(input.expires_at);
      if (Number.isNaN(at) || at <= this.clock.now()) throw new ApiError('VALIDATION_ERROR', "field 'expires_at': must be in the future");
      expires = new Date(at).toISOString();
    }
    for (const cidr of input.cidrs ?? []) {
      if (!ipaddr.isValidCIDR(cidr))
        throw new ApiError(
          'VALIDATION_ERROR',
          `field 'cidrs': ${JSON.stringify(cidr)} is not an address range (203.0.113.0/24, 2001:db8::/32)`,
        );
    }
    const [unknown] = await this.repos.servers.unknownOf(input.server_ids ?? []);
    if (unknown !== undefined) throw new ApiError('VALIDATION_ERROR', `field 'server_ids': no server ${unknown}`);
    const secret = randomBytes(32).toString('base64url');
    const row: Omit<ApiKeyRow, 'id'> = {
      user_id: owner.id,
      name: input.name,
      secret_sha256: digest(secret).toString('hex'),
      prefix: secret.slice(0, 4),
      scopes: input.scopes,
      server_ids: input.server_ids ?? null,
      cidrs: input.cidrs ?? null,
      expires_at: expires,
      created_at: isoNow(this.clock),
      last_used_at: null,
      last_used_address: null,
      revoked_at: null,
    };
    const id = await this.audit.inTransaction(async (trx) => {
      const made = await this.repos.apiKeys.create(row, trx);
      const detail = { scopes: input.scopes, server_ids: input.server_ids ?? null, expires_at: expires };
      await this.audit.record(trx, {
        serverId: null,
        type: 'api_key_created',
        actor: actorOf(owner),
        target: { kind: 'api_key', id: made, name: input.name },
        detail,
      });
      return made;
    });
    return { ...toApiKey({ ...row, id, username: owner.username }), key: `gar_${id}_${secret}` };
  }

  async list(caller: Principal, all: boolean): Promise<ApiKey[]> {
    if (all && caller.role !== 'admin') throw new ApiError('FORBIDDEN', "everyone's keys are for admins; leave out all=true for your own");
    return (await this.repos.apiKeys.list(all ? null : caller.id)).map(toApiKey);
  }

  /** One's own key, or anyone's for an admin; another's is not found (its existence is not told). */
  async revoke(caller: Principal, id: number): Promise<void> {
    const row = await this.repos.apiKeys.find(id);
    if (!row || (row.user_id !== caller.id && caller.role !== 'admin')) throw new ApiError('NOT_FOUND', `no API key ${id}`);
    await this.audit.inTransaction(async (trx) => {
      await this.repos.apiKeys.revoke(id, isoNow(this.clock), trx);
      await this.audit.record(trx, {
        serverId: null,
        type: 'api_key_revoked',
        actor: actorOf(caller),
        target: { kind: 'api_key', id, name: row.name },
        detail: { owner_id: row.user_id },
      });
    });
    for (const listener of this.revoked) listener(id);
  }

  /** Hears of each revocation here (the WebSocket hub closes the key's sockets at once). */
  onRevoked(listener: (id: number) => void): void {
    this.revoked.add(listener);
  }

  /**
   * The principal of a key, or 401 (unknown, revoked, expired, or used from outside its ranges).
   * `address`: the caller's; null when a peer of the cluster forwarded the request, which checked it.
   */
  async principalOf(token: string, address: string | null): Promise<Principal> {
    const match = KEY.exec(token);
    const row = match ? await this.repos.apiKeys.live(Number(match[1])) : undefined;
    // Compared even when there is no such key, so that the time does not tell which part was wrong.
    const expected = row ? Buffer.from(row.secret_sha256, 'hex') : Buffer.alloc(32);
    const matches = timingSafeEqual(digest(match?.[2] ?? ''), expected);
    if (!row || !matches) throw new ApiError('UNAUTHORIZED', 'unknown or revoked API key');
    const now = this.clock.now();
    if (row.expires_at && Date.parse(row.expires_at) <= now)
      throw new ApiError('UNAUTHORIZED', `this API key expired at ${row.expires_at}`);
    const cidrs = row.cidrs;
    if (cidrs && address !== null && !inRanges(address, cidrs))
      throw new ApiError('UNAUTHORIZED', 'this API key may not be used from this address');
    if (address !== null && (!row.last_used_at || now - Date.parse(row.last_used_at) >= USE_NOTED_EVERY_MS)) {
      await this.repos.apiKeys.used(row.id, new Date(now).toISOString(), address);
    }
    return this.twoFactor.withEnrolment(principalOfRow(row), row.has_2fa);
  }
}

function principalOfRow(row: KeyWithOwner): Principal {
  return {
    id: row.user_id,
    username: row.username,
    role: row.role,
    key: { id: row.id, name: row.name, scopes: row.scopes, server_ids: row.server_ids },
  };
}

function toApiKey(row: ApiKeyRow & { username: string }): ApiKey {
  return {
    id: row.id,
    name: row.name,
    owner: { id: row.user_id, username: row.username },
    scopes: row.scopes,
    server_ids: row.server_ids,
    cidrs: row.cidrs,
    expires_at: row.expires_at,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    last_used_address: row.last_used_address,
    prefix: `gar_${row.id}_${row.prefix}…`,
  };
}
