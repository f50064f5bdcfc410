import document from './openapi.gen.json';
import type { paths } from './schema.gen';

/**
 * What the server this console was built with offers, read from the same OpenAPI document the
 * client is generated from. Pages whose endpoint is not in it show "not available on this server".
 */
type Doc = { paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }>> };
const doc = document as unknown as Doc;

export function hasEndpoint(method: 'get' | 'post', path: string): boolean {
  return doc.paths[path]?.[method] !== undefined;
}

/** Whether a request body of the endpoint declares a field (e.g. approve's `duration`). */
export function acceptsField(method: 'post', path: string, field: string): boolean {
  return doc.paths[path]?.[method]?.requestBody?.content?.['application/json']?.schema?.properties?.[field] !== undefined;
}

/**
 * The 200 answer of a GET endpoint as the generated client types it. An endpoint missing from the
 * document (not merged on this server yet) has no type: its page is never rendered, see hasEndpoint.
 */
export type OkOf<P extends string> = P extends keyof paths
  ? paths[P] extends { get: { responses: { 200: { content: { 'application/json': infer R } } } } }
    ? R
    : never
  : // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the endpoint is absent from this build: nothing calls it
    any;
