import type { BanEntry } from '@garrison/core';

/** BattlEye's bans.txt: `<GUID or IP> <expiry as Unix seconds, -1 permanent> <reason>` per line. */
export function renderBanFile(bans: BanEntry[]): string {
  return bans
    .map((ban) => {
      const expiry = ban.expires_at ? Math.floor(ban.expires_at.getTime() / 1000) : -1;
      const reason = ban.reason.replace(/[\r\n]+/g, ' ').trim();
      return `${ban.guid} ${expiry}${reason ? ` ${reason}` : ''}`;
    })
    .join('\n')
    .concat(bans.length ? '\n' : '');
}
