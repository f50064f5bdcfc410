import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parse as parseYaml } from 'yaml';
import { loadConfig } from '@rm/runtime';
import { DEFAULT_POLICY, TriagePolicy } from './policy.js';

/** Thrown when a policy file cannot be read or does not parse; the message is one line naming the bad field. */
export class PolicyError extends Error {
  override name = 'PolicyError';
}

/** Reads and validates a policy file: JSON, or YAML when it ends in .yaml / .yml. */
export function loadPolicy(file: string): TriagePolicy {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new PolicyError(`cannot read ${file}: ${(err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = /\.ya?ml$/i.test(file) ? parseYaml(text) : JSON.parse(text);
  } catch (err) {
    throw new PolicyError(`${file} is not valid ${/\.ya?ml$/i.test(file) ? 'YAML' : 'JSON'}: ${(err as Error).message.split('\n')[0]}`);
  }
  const parsed = TriagePolicy.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new PolicyError(parsed.error.issues.map((i) => `${i.path.join('.') || '(policy)'}: ${i.message}`).join('; '));
}

/**
 * The TRIAGE_POLICY variable, for each process's config schema: a file name in, the validated
 * policy out (the built-in default when unset). A bad policy is a configuration error naming the
 * field, so the process stops at start like for any other bad variable.
 */
export const triageConfigShape = {
  TRIAGE_POLICY: z
    .string()
    .optional()
    .transform((file, ctx): TriagePolicy => {
      if (file === undefined) return DEFAULT_POLICY;
      try {
        return loadPolicy(file);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
};

/** The policy the environment names (TRIAGE_POLICY), or the built-in default. */
export function policyFromEnv(env: NodeJS.ProcessEnv = process.env): TriagePolicy {
  return loadConfig(z.object(triageConfigShape), env).TRIAGE_POLICY;
}
