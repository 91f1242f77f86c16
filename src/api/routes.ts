/**
 * The endpoints of api-spec.md "Endpoints" as data: one table read by the client (paths, retry
 * class), the sandbox (dispatch, 405s) and the generated docs and OpenAPI document.
 */
import type * as z from 'zod/mini';
import {
  AnalysesListSchema, AnalysesQuerySchema, AsyncAcceptedSchema, CaseListSchema, CaseSchema, CasesQuerySchema,
  CreateCaseBodySchema, CreditsSchema, GeolocateRequestSchema, GeolocateResponseSchema, UsageSchema,
} from './schemas.js';

export const API_PREFIX = '/api/v1';

/**
 * The header with which `geo sandbox` marks every answer (DESIGN.md "Sandbox surface"). The CLI
 * prints its sandbox banner only when an answer carried it: a loopback base URL may just as well
 * be a local proxy or tunnel to the real, paid service.
 */
export const SANDBOX_HEADER = 'geo-sandbox';

export interface Route {
  operationId: string;
  method: 'GET' | 'POST';
  path: string;
  tag: string;
  summary: string;
  auth: boolean;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
  /** Success bodies by status. */
  responses: Record<number, z.ZodMiniType | 'text/html'>;
  /** Every status the spec lists for the operation. */
  statuses: number[];
  /**
   * How the client may retry (api-spec.md: POST /geolocate is idempotent by key; POST /cases is not).
   * "idempotent": may retry network errors, 5xx and 429; "keyed": geolocate's own table;
   * "unsafe": only a refused connection and 429.
   */
  retry: 'idempotent' | 'keyed' | 'unsafe';
}

export const routes = {
  geolocate: {
    operationId: 'geolocateImage', method: 'POST', path: `${API_PREFIX}/geolocate`, tag: 'Geolocation',
    summary: 'Locate one image (image_url or image_b64).', auth: true, body: GeolocateRequestSchema,
    responses: { 200: GeolocateResponseSchema, 202: AsyncAcceptedSchema },
    statuses: [200, 202, 400, 401, 402, 403, 404, 405, 409, 422, 429, 500, 502, 503, 504], retry: 'keyed',
  },
  credits: {
    operationId: 'getCredits', method: 'GET', path: `${API_PREFIX}/credits`, tag: 'Account',
    summary: 'Credit balance snapshot.', auth: true, responses: { 200: CreditsSchema }, statuses: [200, 401, 429], retry: 'idempotent',
  },
  usage: {
    operationId: 'getUsage', method: 'GET', path: `${API_PREFIX}/usage`, tag: 'Account',
    summary: 'Meter status, overage mode and access lifecycle (fields not shown).', auth: true,
    responses: { 200: UsageSchema }, statuses: [200, 401, 429], retry: 'idempotent',
  },
  analyses: {
    operationId: 'listAnalyses', method: 'GET', path: `${API_PREFIX}/analyses`, tag: 'Account',
    summary: 'Saved analyses of the caller, searchable by neighborhood, city or filename.', auth: true,
    query: AnalysesQuerySchema, responses: { 200: AnalysesListSchema }, statuses: [200, 401, 429], retry: 'idempotent',
  },
  listCases: {
    operationId: 'listCases', method: 'GET', path: `${API_PREFIX}/cases`, tag: 'Cases',
    summary: 'Investigation cases of the caller.', auth: true, query: CasesQuerySchema,
    responses: { 200: CaseListSchema }, statuses: [200, 401, 429], retry: 'idempotent',
  },
  createCase: {
    operationId: 'createCase', method: 'POST', path: `${API_PREFIX}/cases`, tag: 'Cases',
    summary: 'Create a case for grouping analyses (answers 200, not 201).', auth: true, body: CreateCaseBodySchema,
    responses: { 200: CaseSchema }, statuses: [200, 401, 402, 429], retry: 'unsafe',
  },
  docs: {
    operationId: 'getApiDocs', method: 'GET', path: `${API_PREFIX}/docs`, tag: 'Discovery',
    summary: 'HTML API documentation (no authentication).', auth: false,
    responses: { 200: 'text/html' }, statuses: [200], retry: 'idempotent',
  },
} as const satisfies Record<string, Route>;

export type RouteName = keyof typeof routes;
export const routeList: Route[] = Object.values(routes);

/** Routes that share a path, for 405 answers with an Allow header. */
export function routesForPath(path: string): Route[] {
  return routeList.filter((r) => r.path === path);
}
