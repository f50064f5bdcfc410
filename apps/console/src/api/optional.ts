import { api, type ApiError } from './client';
import type { OkOf } from './capabilities';

interface Init {
  params?: { path?: Record<string, string>; query?: Record<string, string | number | undefined> };
}

/**
 * GET through the generated client for an endpoint that another branch may not have merged into
 * this server yet: callers check hasEndpoint first, and the answer is typed from the generated
 * document once the endpoint is in it.
 */
export async function getOptional<P extends string>(path: P, init: Init = {}): Promise<{ data?: OkOf<P>; error?: ApiError; response: Response }> {
  const get = api.GET as unknown as (path: string, init: Init) => Promise<{ data?: OkOf<P>; error?: ApiError; response: Response }>;
  return get(path, init);
}
