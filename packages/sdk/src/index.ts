/**
 * @garrison/sdk — the typed client. Every endpoint of core's table is a typed `call`, with the types
 * derived from the schemas the server validates with; resource-grouped methods, live events and
 * upload helpers are still to come (issue 10).
 */
export { GarrisonClient, type GarrisonClientOptions, type CallInput, type CallResult } from './client.js';
export { GarrisonApiError } from './errors.js';
export { endpoints } from '@garrison/core';
export type { BodyOf, EndpointDef, EndpointId, Endpoints, ParamsOf, QueryOf, ResponseOf } from '@garrison/core';
