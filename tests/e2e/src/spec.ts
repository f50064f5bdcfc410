import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './harness.js';

/**
 * The HTTP contract in machine-readable form, committed with the project (docs/api.md is its
 * prose). The tests hold the generated OpenAPI document to it, so neither drifts from the other.
 */
export const CONTRACT_PATH = join(ROOT, 'docs', 'contract', 'report-moderation-api.json');

export interface FieldSpec {
  type: string;
  required?: boolean;
  enum?: string[];
  /** [min, max] items of an array. */
  items?: [number, number] | string[];
  /** [min, max] length of a string. */
  length?: [number, number];
  format?: string;
  fields?: Record<string, FieldSpec>;
  entry?: Record<string, FieldSpec>;
}

export interface ObjectSpec {
  additionalProperties?: boolean;
  fields: Record<string, FieldSpec>;
  [nested: string]: unknown;
}

export interface EndpointSpec {
  method: string;
  path: string;
  permission: string;
  /** The OpenAPI operationId: client generators name methods after it, so it never changes. */
  operationId?: string;
  body?: ObjectSpec;
  response: { fields?: Record<string, FieldSpec>; data?: string[] };
  /** An extension's statuses beyond section 7's (409 of POST /v1/sanctions), in the same error shape. */
  moreErrorStatuses?: number[];
}

export interface Contract {
  version: string;
  errorStatuses: number[];
  endpoints: EndpointSpec[];
  extensions: EndpointSpec[];
}

export function loadContract(path = CONTRACT_PATH): Contract {
  return JSON.parse(readFileSync(path, 'utf8')) as Contract;
}

/** The named endpoint of the contract; throws when it has none, so a typo fails loudly. */
export function endpoint(contract: Contract, method: string, path: string): EndpointSpec {
  const e = [...contract.endpoints, ...contract.extensions].find((x) => x.method === method && x.path === path);
  if (!e) throw new Error(`the contract has no ${method} ${path}`);
  return e;
}

/** Field names, sorted. */
export const names = (fields: Record<string, unknown> | undefined) => Object.keys(fields ?? {}).sort();

/** Names of the required fields, sorted. */
export const requiredNames = (fields: Record<string, FieldSpec>) =>
  Object.entries(fields)
    .filter(([, f]) => f.required)
    .map(([n]) => n)
    .sort();
