/**
 * @garrison/sdk — the typed client. The client itself is its own issue; what exists today is the
 * contract it is generated from: core's endpoint table and the request/response types derived from it.
 */
export { endpoints } from '@garrison/core';
export type { BodyOf, EndpointDef, EndpointId, Endpoints, ParamsOf, QueryOf, ResponseOf } from '@garrison/core';
