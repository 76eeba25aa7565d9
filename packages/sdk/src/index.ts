/**
 * @garrison/sdk — the typed client. Every endpoint of core's table is a typed `call`, with the types
 * derived from the schemas the server validates with, and the same calls grouped by resource; live
 * events and streamed uploads with progress are still to come (issue 10).
 */
export { GarrisonClient, type GarrisonClientOptions, type CallFn, type CallInput, type CallResult } from './client.js';
export type { SectionPatch } from './resources/index.js';
export type { UploadOptions, UploadProgress, UploadSource } from './upload.js';
export { GarrisonApiError } from './errors.js';
export { GarrisonNetworkError, type NetworkFailure } from './network.js';
export type { RateLimitState } from './rate-limit.js';
export type { EventHandlers, SubscribeOptions, Subscription } from './events.js';
export type { LiveEvent, LiveEventType } from '@garrison/core';
export { endpoints } from '@garrison/core';
export type { BodyOf, EndpointDef, EndpointId, Endpoints, ParamsOf, QueryOf, ResponseOf } from '@garrison/core';
