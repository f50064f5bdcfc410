import type { Permission } from '@rm/contracts';
import type {
  ApiKeyRecord,
  CaseEvent,
  CaseMessageRecord,
  CaseRecord,
  CaseState,
  ChatMessageRecord,
  DeliveryRecord,
  ReportRecord,
  UserRecord,
} from '../records.js';

/** Row shapes as SQLite returns them, and their mapping to records. */
export interface ApiKeyRow {
  key: string;
  name: string;
  secret_hash: string;
  permissions: string;
  elevated: number;
  admin: number;
  rate_limit: number | null;
  created_at: number;
  revoked_at: number | null;
}
export const toApiKey = (r: ApiKeyRow): ApiKeyRecord => ({
  key: r.key,
  name: r.name,
  secretHash: r.secret_hash,
  permissions: JSON.parse(r.permissions) as Permission[],
  elevated: r.elevated === 1,
  admin: r.admin === 1,
  rateLimit: r.rate_limit,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

export interface UserRow {
  id: string;
  name: string;
  display_name: string;
  avatar: string | null;
}
export const toUser = (r: UserRow): UserRecord => ({ id: r.id, name: r.name, displayName: r.display_name, avatar: r.avatar });

export interface CaseRow {
  id: string;
  user_id: string;
  state: CaseState;
  claimed_by: string | null;
  version: number;
  created_at: number;
  updated_at: number;
}
export const toCase = (r: CaseRow): CaseRecord => ({
  id: r.id,
  userId: r.user_id,
  state: r.state,
  claimedBy: r.claimed_by,
  version: r.version,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export interface ReportRow {
  id: string;
  case_id: string;
  user_id: string;
  reporter_id: string;
  reporter_platform: string;
  report_type: string | null;
  answers: string;
  evidence: string;
  received_at: number;
  user_name: string;
  user_display_name: string;
  user_avatar: string | null;
}
export const toReport = (r: ReportRow): ReportRecord => ({
  id: r.id,
  caseId: r.case_id,
  userId: r.user_id,
  reporterId: r.reporter_id,
  reporterPlatform: r.reporter_platform,
  reportType: r.report_type,
  answers: JSON.parse(r.answers) as ReportRecord['answers'],
  evidence: JSON.parse(r.evidence) as ReportRecord['evidence'],
  receivedAt: r.received_at,
  user: { name: r.user_name, displayName: r.user_display_name, avatar: r.user_avatar },
});

export interface EventRow {
  case_id: string;
  decision_id: string;
  action: CaseEvent['action'];
  moderator_id: string;
  from_state: CaseState;
  to_state: CaseState;
  at: number;
  result: string;
}
export const toEvent = (r: EventRow): CaseEvent => ({
  caseId: r.case_id,
  decisionId: r.decision_id,
  action: r.action,
  moderatorId: r.moderator_id,
  fromState: r.from_state,
  toState: r.to_state,
  at: r.at,
  result: JSON.parse(r.result) as unknown,
});

export interface MessageRow {
  id: string;
  channel: string;
  kind: string;
  content: string;
  dedupe_key: string;
  created_at: number;
  edited_at: number | null;
}
export const toMessage = (r: MessageRow): ChatMessageRecord => ({
  id: r.id,
  channel: r.channel,
  kind: r.kind,
  content: r.content,
  dedupeKey: r.dedupe_key,
  createdAt: r.created_at,
  editedAt: r.edited_at,
});

export interface CaseMessageRow {
  case_id: string;
  channel: string;
  message_id: string;
  updated_at: number;
}
export const toCaseMessage = (r: CaseMessageRow): CaseMessageRecord => ({
  caseId: r.case_id,
  channel: r.channel,
  messageId: r.message_id,
  updatedAt: r.updated_at,
});

export interface DeliveryRow {
  key: string;
  external_id: string | null;
  delivered_at: number;
}
export const toDelivery = (r: DeliveryRow): DeliveryRecord => ({ key: r.key, externalId: r.external_id, deliveredAt: r.delivered_at });
