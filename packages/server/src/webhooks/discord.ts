import { WebhookEventCatalogue, type WebhookEventType, type WebhookPayload } from '@garrison/core';

/** Discord takes at most 10 embeds a message: a burst of events becomes one message of up to 10. */
export const EMBEDS_PER_MESSAGE = 10;

const COLOURS = { good: 0x2ecc71, info: 0x3498db, warning: 0xf1c40f, bad: 0xe74c3c } as const;

/**
 * Names from players and admins shown as typed, not as markdown: `*bold*`, `@everyone` or a `[link](…)`
 * in a player's name stays text. (Mentions are also switched off by `allowed_mentions`.)
 */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\*_~`|>#[\]()<@:-]/g, (c) => `\\${c}`).slice(0, 200);
}

const what: { [K in WebhookEventType]: (data: Extract<WebhookPayload, { type: K }>['data']) => string } = {
  'server.started': () => 'started',
  'server.stopped': (d) => (d.forced ? 'was killed' : 'was stopped') + (d.by ? ` by ${escapeMarkdown(d.by)}` : ''),
  'server.crashed': (d) => `crashed (exit code ${d.exit_code ?? d.signal ?? 'unknown'})`,
  'server.restarted': (d) => `restarted (${d.reason}${d.by ? `, by ${escapeMarkdown(d.by)}` : ''})`,
  'server.crash_loop': (d) => `keeps crashing: gave up after ${d.restart_count} restarts`,
  'player.joined': (d) => `${escapeMarkdown(d.player_name)} joined`,
  'player.left': (d) => `${escapeMarkdown(d.player_name)} left`,
  'player.kicked': (d) => `${escapeMarkdown(d.player_name)} was kicked${d.reason ? `: ${escapeMarkdown(d.reason)}` : ''}`,
  'player.banned': (d) =>
    `a ban was added${d.duration_minutes ? ` for ${d.duration_minutes} min` : ''}${d.reason ? `: ${escapeMarkdown(d.reason)}` : ''}`,
  'config.changed': (d) => `config section ${escapeMarkdown(d.section)} changed${d.by ? ` by ${escapeMarkdown(d.by)}` : ''}`,
  'schedule.failed': (d) => `schedule ${d.schedule_id} failed${d.reason ? `: ${escapeMarkdown(d.reason)}` : ''}`,
  'schedule.skipped': (d) => `schedule ${d.schedule_id} skipped${d.reason ? `: ${escapeMarkdown(d.reason)}` : ''}`,
  'backup.completed': (d) => `backup ${d.backup_id} written (${Math.round(d.bytes / 1024)} KiB)`,
  'backup.failed': (d) => `backup ${d.backup_id} failed${d.reason ? `: ${escapeMarkdown(d.reason)}` : ''}`,
  'job.failed': (d) => `job ${d.job_id} (${escapeMarkdown(d.kind)}) failed: ${escapeMarkdown(d.code)} ${escapeMarkdown(d.message)}`,
  'workshop.updated': (d) => {
    const names = d.items.map((i) => escapeMarkdown(i.name)).join(', ');
    return `Workshop updates ${d.stage === 'installed' ? 'installed' : 'on Steam'}: ${names}`.slice(0, 200);
  },
  'rcon.lost': () => 'remote admin stopped answering',
  'rcon.restored': () => 'remote admin answers again',
  'node.offline': (d) => `node ${escapeMarkdown(d.node_id)} is offline`,
  'node.online': (d) => `node ${escapeMarkdown(d.node_id)} is back online`,
  'auth.second_step_paused': (d) =>
    `${d.failures} wrong two-factor codes in a row for ${escapeMarkdown(d.username)}: sign-ins pause until ${d.paused_until}`,
  'webhook.test': (d) => escapeMarkdown(d.message),
};

function embed(payload: WebhookPayload) {
  const data = payload.data as { server_name?: string };
  const sentence = (what[payload.type] as (d: unknown) => string)(payload.data);
  return {
    title: (data.server_name ? `${escapeMarkdown(data.server_name)}: ${sentence}` : sentence).slice(0, 256),
    description: WebhookEventCatalogue[payload.type].description.slice(0, 4096),
    color: COLOURS[WebhookEventCatalogue[payload.type].severity],
    timestamp: payload.timestamp,
    footer: { text: `Garrison · ${payload.type}` },
  };
}

/** One Discord message for up to 10 events: embeds, no mentions parsed (nobody pinged by a player's name). */
export function discordMessage(payloads: WebhookPayload[]) {
  return { username: 'Garrison', embeds: payloads.slice(0, EMBEDS_PER_MESSAGE).map(embed), allowed_mentions: { parse: [] as string[] } };
}
