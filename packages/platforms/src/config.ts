import { z } from 'zod';
import { ConfigError, env, type Redis } from '@rm/runtime';
import type { AccountStore, DecisionStore } from '@rm/storage';
import { embeddedChat, type ChatPlatform } from './chat-platform.js';
import { httpChat } from './chat-http.adapter.js';
import { decisionWebhook, type DecisionWebhook } from './decision-webhook.js';
import { memoizedDirectory } from './directory-memo.js';
import { cachedDirectory } from './directory-cache.js';
import { httpDirectory } from './directory-http.adapter.js';
import { embeddedDirectory, type UserDirectory } from './user-directory.js';

/**
 * The variables that choose and configure each platform adapter, for apps to spread into their
 * config schema. A URL set selects the HTTP adapter; unset, the embedded one.
 */
const timeoutShape = {
  /** Every call to a platform (chat, directory, webhook) gives up after this long. */
  PLATFORM_TIMEOUT_MS: env.positiveInt(3000),
};

export const chatConfigShape = {
  ...timeoutShape,
  CHAT_API_URL: env.url(),
  CHAT_TOKEN: env.optionalString(),
  /** The chat channel where cases are posted; echoed in dismiss answers. */
  REPORT_CHANNEL_ID: env.string('reports'),
  /** Keep the reported user's name out of chat messages; echoed in answers as hideUsername. */
  HIDE_USERNAME: env.bool(false),
};
export const directoryConfigShape = {
  ...timeoutShape,
  USER_DIRECTORY_URL: env.url(),
  USER_CACHE_TTL_MS: env.positiveInt(60_000),
};
export const webhookConfigShape = {
  ...timeoutShape,
  DECISION_WEBHOOK_URL: env.url(),
  DECISION_WEBHOOK_SECRET: env.optionalString(),
};

export type ChatConfig = z.infer<z.ZodObject<typeof chatConfigShape>>;
export type DirectoryConfig = z.infer<z.ZodObject<typeof directoryConfigShape>>;
export type WebhookConfig = z.infer<z.ZodObject<typeof webhookConfigShape>>;

const requiredWith = (name: string, by: string) => new ConfigError([`${name}: required when ${by} is set (got null)`]);

export function createChatPlatform(config: ChatConfig, store: DecisionStore): ChatPlatform {
  if (!config.CHAT_API_URL) return embeddedChat(store);
  if (!config.CHAT_TOKEN) throw requiredWith('CHAT_TOKEN', 'CHAT_API_URL');
  return httpChat({ baseUrl: config.CHAT_API_URL, token: config.CHAT_TOKEN, timeoutMs: config.PLATFORM_TIMEOUT_MS, deliveries: store });
}

export function createUserDirectory(config: DirectoryConfig, deps: { store: AccountStore; redis: Redis; prefix: string }): UserDirectory {
  if (!config.USER_DIRECTORY_URL) return memoizedDirectory(embeddedDirectory(deps.store), config.USER_CACHE_TTL_MS);
  const http = httpDirectory({ baseUrl: config.USER_DIRECTORY_URL, timeoutMs: config.PLATFORM_TIMEOUT_MS });
  return memoizedDirectory(cachedDirectory(http, deps.redis, { prefix: deps.prefix, ttlMs: config.USER_CACHE_TTL_MS }), config.USER_CACHE_TTL_MS);
}

/** null when no webhook is configured. */
export function createDecisionWebhook(config: WebhookConfig, store: DecisionStore): DecisionWebhook | null {
  if (!config.DECISION_WEBHOOK_URL) return null;
  if (!config.DECISION_WEBHOOK_SECRET) throw requiredWith('DECISION_WEBHOOK_SECRET', 'DECISION_WEBHOOK_URL');
  return decisionWebhook({ url: config.DECISION_WEBHOOK_URL, secret: config.DECISION_WEBHOOK_SECRET, timeoutMs: config.PLATFORM_TIMEOUT_MS, deliveries: store });
}
