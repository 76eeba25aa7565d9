import type { AuditEventType, EndpointId, Endpoints } from '@garrison/core';

/** The endpoints that may change something: every method but GET. */
type MutatingEndpointId = { [K in EndpointId]: Endpoints[K]['method'] extends 'GET' ? never : K }[EndpointId];

/**
 * What each changing endpoint writes to the audit trail (the service records it, with the caller as the
 * actor, in the change's transaction). A new endpoint goes here or in `UNAUDITED_ENDPOINTS`: the audit
 * walk test fails otherwise.
 */
export const ENDPOINT_AUDIT: { readonly [K in MutatingEndpointId]?: readonly AuditEventType[] } = {
  enableTwoFactor: ['two_factor_enabled'],
  disableTwoFactor: ['two_factor_disabled'],
  changePassword: ['password_changed', 'sessions_ended'],
  createApiKey: ['api_key_created'],
  revokeApiKey: ['api_key_revoked'],
  endSession: ['session_ended'],
  endAllSessions: ['sessions_ended'],
  createUser: ['user_created'],
  updateUser: ['user_role_changed', 'password_reset'],
  deleteUser: ['user_deleted'],
  createWebhook: ['webhook_created'],
  updateWebhook: ['webhook_updated'],
  deleteWebhook: ['webhook_deleted'],
  rotateWebhookSecret: ['webhook_secret_rotated'],
  testWebhook: ['webhook_tested'],
  redeliverWebhookDelivery: ['webhook_redelivered'],
  updateNode: ['node_drained', 'node_undrained'],
  createServer: ['server_created'],
  importServer: ['server_created', 'server_imported'],
  updateServer: ['server_updated'],
  deleteServer: ['server_deleted'],
  startServer: ['start'],
  stopServer: ['stop'],
  restartServer: ['restart'],
  killServer: ['kill'],
  clearLogs: ['logs_cleared'],
  deleteLogFile: ['log_file_deleted'],
  uploadMission: ['mission_uploaded'],
  uploadMissionAlias: ['mission_uploaded'],
  setRotation: ['config_changed'],
  playMission: ['mission_played'],
  deleteMission: ['mission_deleted'],
  setEnabledMods: ['config_changed'],
  // A comparison changes nothing; `?apply=true` enables the preset's mods.
  importModPreset: ['config_changed'],
  deleteWorkshopItem: ['workshop_item_removed'],
  createSchedule: ['schedule_created'],
  updateSchedule: ['schedule_updated'],
  deleteSchedule: ['schedule_deleted'],
  runSchedule: ['schedule_run'],
  createBackup: ['backup_started'],
  // Locking and unlocking are `backup_updated` with `locked` in the detail.
  updateBackup: ['backup_updated'],
  restoreBackup: ['backup_restored'],
  deleteBackup: ['backup_deleted'],
  // A queued job is cancelled at once; a running one is asked to stop (its end, `job_cancelled`, is the worker's).
  cancelJob: ['job_cancelled', 'job_cancel_requested'],
  // Never the password nor the Guard code: the username, and whether a code was given.
  setSteamAccount: ['steam_account_set'],
  deleteSteamAccount: ['steam_account_removed'],
  // The job's own entries follow it: job_started, then job_done or job_failed.
  installServer: ['job_queued'],
  // The same for a Workshop download; an update with nothing outdated queues nothing, so records nothing.
  addWorkshopItems: ['job_queued'],
  updateWorkshopItems: ['job_queued'],
  kickPlayer: ['kick'],
  banPlayer: ['ban'],
  createBan: ['ban'],
  revokeBan: ['unban'],
  rconSay: ['command'],
  updateConfigSection: ['config_changed'],
  rconCommand: ['command'],
};

/** The changing endpoints that write no entry, and why. */
export const UNAUDITED_ENDPOINTS: { readonly [K in MutatingEndpointId]?: string } = {
  login: 'a sign-in opens a session (listed by GET /auth/sessions, with its address); failures are rate-limited and logged',
  loginTwoFactor: 'the second step of a sign-in: as login',
  logout: 'changes nothing on the service: the client discards its token',
  setupTwoFactor: 'keeps a pending secret only; two-factor sign-in changes at POST /auth/2fa/enable, which is recorded',
  checkWorkshopItems:
    "asks Steam and marks items outdated (Steam's fact, not an admin's change); what it finds is told as workshop.updated",
};
