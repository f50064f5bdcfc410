/**
 * Migrations, applied in order at open; PRAGMA user_version records how many ran. Append only:
 * never edit a migration that has shipped.
 */
export const MIGRATIONS: string[] = [
  `
  CREATE TABLE api_keys (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    secret_hash TEXT NOT NULL,
    permissions TEXT NOT NULL,
    elevated INTEGER NOT NULL,
    admin INTEGER NOT NULL,
    rate_limit INTEGER,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
  );
  CREATE TABLE users (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    display_name TEXT NOT NULL,
    avatar TEXT
  );
  CREATE TABLE bans (
    user_id TEXT PRIMARY KEY,
    case_id TEXT NOT NULL,
    at INTEGER NOT NULL
  );
  CREATE TABLE moderators (
    id TEXT PRIMARY KEY,
    username TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE cases (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    state TEXT NOT NULL,
    claimed_by TEXT,
    version INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  -- At most one open case per user: the store itself refuses a second.
  CREATE UNIQUE INDEX cases_open_by_user ON cases(user_id) WHERE state IN ('open', 'claimed');
  CREATE TABLE reports (
    id TEXT PRIMARY KEY,
    case_id TEXT NOT NULL REFERENCES cases(id),
    user_id TEXT NOT NULL,
    reporter_id TEXT NOT NULL,
    reporter_platform TEXT NOT NULL,
    report_type TEXT,
    answers TEXT NOT NULL,
    evidence TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    user_name TEXT NOT NULL,
    user_display_name TEXT NOT NULL,
    user_avatar TEXT
  );
  -- The list query: a user's reports, newest first.
  CREATE INDEX reports_by_user_time ON reports(user_id, received_at DESC, id DESC);
  CREATE INDEX reports_by_case ON reports(case_id, received_at, id);
  CREATE TABLE case_events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id TEXT NOT NULL,
    decision_id TEXT NOT NULL UNIQUE,
    action TEXT NOT NULL,
    moderator_id TEXT NOT NULL,
    from_state TEXT NOT NULL,
    to_state TEXT NOT NULL,
    at INTEGER NOT NULL,
    result TEXT NOT NULL
  );
  CREATE INDEX case_events_by_case ON case_events(case_id, seq);
  CREATE TABLE messages (
    id TEXT PRIMARY KEY,
    channel TEXT NOT NULL,
    kind TEXT NOT NULL,
    content TEXT NOT NULL,
    dedupe_key TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL
  );
  `,
  // 2: chat messages can be edited; each case remembers its chat message; deliveries to outside
  // systems are recorded so a redelivered notification sends nothing twice.
  `
  ALTER TABLE messages ADD COLUMN edited_at INTEGER;
  CREATE TABLE case_messages (
    case_id TEXT PRIMARY KEY,
    channel TEXT NOT NULL,
    message_id TEXT NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE TABLE deliveries (
    key TEXT PRIMARY KEY,
    external_id TEXT,
    delivered_at INTEGER NOT NULL
  );
  `,
  // 3: reports per user, kept with every insert, so the list's total is one row read rather than
  // a count over all of a user's reports (10,000 for a much-reported player).
  `
  CREATE TABLE user_report_counts (
    user_id TEXT PRIMARY KEY,
    reports INTEGER NOT NULL
  );
  INSERT INTO user_report_counts (user_id, reports) SELECT user_id, COUNT(*) FROM reports GROUP BY user_id;
  `,
  // 4: the case's reports are found through the user's index (a case belongs to one user). A
  // second index scattered by case id dirtied a page per stored report and made each commit and
  // checkpoint write twice as much; see docs/performance.md.
  `
  DROP INDEX reports_by_case;
  `,
  // 5 (queue health): a case remembers that it breached its SLA; breaches are kept once per
  // opening for the figures; decisions and reports are found by time for GET /v1/stats. Both
  // time indexes grow at their end (times increase), so they cost a stored report little.
  `
  ALTER TABLE cases ADD COLUMN sla_breached INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE sla_breaches (
    case_id TEXT NOT NULL,
    opening_id TEXT NOT NULL,
    category TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (case_id, opening_id)
  );
  CREATE INDEX sla_breaches_by_time ON sla_breaches(at);
  CREATE INDEX case_events_by_time ON case_events(at);
  CREATE INDEX reports_by_time ON reports(received_at);
  `,
  // 6: sanctions owned by the case that set them (replacing one ban row per user), the feed of
  // their changes (seq: an autoincrement assigned inside the write transaction, so seq order is
  // commit order), and the outbox of effects owed by decisions and sanction changes. Every
  // existing ban becomes a permanent sanction with its feed event.
  `
  CREATE TABLE sanctions (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    case_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    reason TEXT,
    moderator_id TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER,
    state TEXT NOT NULL,
    lifted_at INTEGER,
    lifted_by TEXT,
    lift_reason TEXT
  );
  CREATE INDEX sanctions_by_user ON sanctions(user_id, created_at DESC, id DESC);
  CREATE UNIQUE INDEX sanctions_active_by_case ON sanctions(case_id) WHERE state = 'active';
  CREATE INDEX sanctions_due ON sanctions(expires_at) WHERE state = 'active' AND expires_at IS NOT NULL;
  CREATE TABLE sanction_events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    type TEXT NOT NULL,
    sanction_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    case_id TEXT NOT NULL,
    expires_at INTEGER,
    at INTEGER NOT NULL
  );
  CREATE INDEX sanction_events_by_sanction ON sanction_events(sanction_id, seq);
  CREATE TABLE effects (
    id TEXT PRIMARY KEY,
    source_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    done_at INTEGER
  );
  CREATE INDEX effects_pending ON effects(created_at, id) WHERE done_at IS NULL;
  CREATE INDEX effects_by_source ON effects(source_id, created_at, id);
  INSERT INTO sanctions (id, user_id, case_id, kind, reason, moderator_id, created_at, expires_at, state, lifted_at, lifted_by, lift_reason)
    SELECT COALESCE((SELECT decision_id FROM case_events e WHERE e.case_id = b.case_id AND e.action = 'approve' ORDER BY seq DESC LIMIT 1), 'ban-' || b.case_id),
      b.user_id, b.case_id, 'ban', NULL,
      COALESCE((SELECT moderator_id FROM case_events e WHERE e.case_id = b.case_id AND e.action = 'approve' ORDER BY seq DESC LIMIT 1), 'unknown'),
      b.at, NULL, 'active', NULL, NULL, NULL
    FROM bans b;
  INSERT INTO sanction_events (type, sanction_id, user_id, case_id, expires_at, at)
    SELECT 'sanction.created', id, user_id, case_id, NULL, created_at FROM sanctions ORDER BY created_at, id;
  DROP TABLE bans;
  `,
  // 7 (triage): each reporter's approved and dismissed cases, counted from the cases already
  // decided; each case's triage (priority without its age term, categories, flags, fired rules).
  `
  CREATE TABLE reporter_stats (
    platform TEXT NOT NULL,
    reporter_id TEXT NOT NULL,
    approved INTEGER NOT NULL,
    dismissed INTEGER NOT NULL,
    PRIMARY KEY (platform, reporter_id)
  );
  INSERT INTO reporter_stats (platform, reporter_id, approved, dismissed)
    SELECT reporter_platform, reporter_id, SUM(state = 'approved'), SUM(state = 'dismissed')
    FROM (SELECT DISTINCT r.reporter_platform, r.reporter_id, r.case_id, c.state
          FROM reports r JOIN cases c ON c.id = r.case_id WHERE c.state IN ('approved', 'dismissed'))
    GROUP BY reporter_platform, reporter_id;
  CREATE TABLE case_triage (
    case_id TEXT PRIMARY KEY REFERENCES cases(id),
    priority REAL NOT NULL,
    report_count INTEGER NOT NULL,
    distinct_reporters INTEGER NOT NULL,
    categories TEXT NOT NULL,
    flags TEXT NOT NULL,
    fired_rules TEXT NOT NULL,
    last_report_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  `,
  // 8 (console): an API key may be bound to a moderator, as whom alone it then acts.
  `
  ALTER TABLE api_keys ADD COLUMN moderator_id TEXT;
  `,
  // 9 (enforcement): a sanction has a kind of the policy, whether it blocks login (snapshotted
  // from the policy), its category, its source (case, rule or trusted system), a trusted system's
  // idempotency key (unique), a ban wave's effectiveAt (state 'scheduled' until then) and the
  // ladder's note; a trusted system's sanction has no case, so case_id becomes nullable (SQLite
  // cannot drop NOT NULL in place: both tables are rebuilt, seq values kept). Earlier sanctions
  // are login-blocking bans whose source is their case, or their rule (`rule-<case>-<rule>` ids).
  `
  CREATE TABLE sanctions_v9 (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    case_id TEXT,
    kind TEXT NOT NULL,
    blocks_login INTEGER NOT NULL,
    category TEXT,
    source_type TEXT NOT NULL,
    source_id TEXT NOT NULL,
    idempotency_key TEXT,
    effective_at INTEGER,
    ladder TEXT,
    evidence TEXT NOT NULL,
    reason TEXT,
    moderator_id TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER,
    state TEXT NOT NULL,
    lifted_at INTEGER,
    lifted_by TEXT,
    lift_reason TEXT
  );
  INSERT INTO sanctions_v9 (id, user_id, case_id, kind, blocks_login, category, source_type, source_id, idempotency_key, effective_at, ladder,
      evidence, reason, moderator_id, created_at, expires_at, state, lifted_at, lifted_by, lift_reason)
    SELECT id, user_id, case_id, kind, 1, NULL,
      CASE WHEN substr(id, 1, length(case_id) + 6) = 'rule-' || case_id || '-' THEN 'rule' ELSE 'case' END,
      CASE WHEN substr(id, 1, length(case_id) + 6) = 'rule-' || case_id || '-' THEN substr(id, length(case_id) + 7) ELSE case_id END,
      NULL, NULL, NULL, '[]', reason, moderator_id, created_at, expires_at, state, lifted_at, lifted_by, lift_reason
    FROM sanctions;
  DROP TABLE sanctions;
  ALTER TABLE sanctions_v9 RENAME TO sanctions;
  CREATE INDEX sanctions_by_user ON sanctions(user_id, created_at DESC, id DESC);
  CREATE UNIQUE INDEX sanctions_active_by_case ON sanctions(case_id) WHERE state = 'active' AND case_id IS NOT NULL;
  CREATE INDEX sanctions_due ON sanctions(expires_at) WHERE state = 'active' AND expires_at IS NOT NULL;
  CREATE UNIQUE INDEX sanctions_by_idempotency_key ON sanctions(idempotency_key) WHERE idempotency_key IS NOT NULL;
  CREATE INDEX sanctions_scheduled ON sanctions(effective_at) WHERE state = 'scheduled';
  CREATE TABLE sanction_events_v9 (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    type TEXT NOT NULL,
    sanction_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    case_id TEXT,
    kind TEXT NOT NULL,
    expires_at INTEGER,
    at INTEGER NOT NULL
  );
  INSERT INTO sanction_events_v9 (seq, type, sanction_id, user_id, case_id, kind, expires_at, at)
    SELECT seq, type, sanction_id, user_id, case_id, 'ban', expires_at, at FROM sanction_events ORDER BY seq;
  DROP TABLE sanction_events;
  ALTER TABLE sanction_events_v9 RENAME TO sanction_events;
  CREATE INDEX sanction_events_by_sanction ON sanction_events(sanction_id, seq);
  `,
  // 10 (evidence): the outcome of each capture, one row per report and evidence index, and the
  // evidence audit. Items by hash (is a kept copy still held?) and captured items by case (retention).
  `
  CREATE TABLE evidence_items (
    report_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    case_id TEXT NOT NULL,
    state TEXT NOT NULL,
    failure TEXT,
    detail TEXT,
    sha256 TEXT,
    size INTEGER,
    content_type TEXT,
    captured_at INTEGER,
    at INTEGER NOT NULL,
    PRIMARY KEY (report_id, idx)
  );
  CREATE INDEX evidence_by_sha256 ON evidence_items(sha256) WHERE state = 'captured';
  CREATE INDEX evidence_captured_by_case ON evidence_items(case_id) WHERE state = 'captured';
  CREATE TABLE evidence_audit (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    report_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    sha256 TEXT,
    detail TEXT,
    at INTEGER NOT NULL
  );
  CREATE INDEX evidence_audit_by_report ON evidence_audit(report_id, seq);
  `,
  // 11 (reporter outcomes): each decided report's outcome for its reporter, at the seq of its
  // latest change (an autoincrement: a change replaces the row, which takes a new, higher seq, in
  // the decision's write transaction, so seq order is commit order); read by reporter and seq.
  // The reports of cases already decided get theirs, in the order they were decided.
  `
  CREATE TABLE report_outcomes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    report_id TEXT NOT NULL UNIQUE,
    reporter_platform TEXT NOT NULL,
    reporter_id TEXT NOT NULL,
    case_id TEXT NOT NULL,
    actioned INTEGER NOT NULL,
    reopened INTEGER NOT NULL,
    at INTEGER NOT NULL
  );
  CREATE INDEX report_outcomes_by_reporter ON report_outcomes(reporter_platform, reporter_id, seq);
  INSERT INTO report_outcomes (report_id, reporter_platform, reporter_id, case_id, actioned, reopened, at)
    SELECT r.id, r.reporter_platform, r.reporter_id, r.case_id, c.state = 'approved', 0,
      COALESCE((SELECT MAX(e.at) FROM case_events e WHERE e.case_id = c.id AND e.to_state = c.state), c.updated_at) AS decided_at
    FROM reports r JOIN cases c ON c.id = r.case_id
    WHERE c.state IN ('approved', 'dismissed')
    ORDER BY decided_at, r.received_at, r.id;
  `,
  // 12 (appeals): appeals of sanctions, at most one per sanction, and their audit; a feed event may
  // carry a lift's cause (`appeal`) and an appeal's outcome (`appeal.resolved`).
  `
  CREATE TABLE appeals (
    id TEXT PRIMARY KEY,
    sanction_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    case_id TEXT,
    category TEXT,
    sanction_moderator_id TEXT NOT NULL,
    automated INTEGER NOT NULL,
    statement TEXT NOT NULL,
    state TEXT NOT NULL,
    claimed_by TEXT,
    version INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    decided_at INTEGER,
    decided_by TEXT,
    decision_reason TEXT,
    sla_breached INTEGER NOT NULL DEFAULT 0
  );
  CREATE UNIQUE INDEX appeals_by_sanction ON appeals(sanction_id);
  CREATE INDEX appeals_queue ON appeals(state, created_at, id);
  CREATE INDEX appeals_by_user ON appeals(user_id, created_at, id);
  CREATE INDEX appeals_by_case ON appeals(case_id, created_at, id) WHERE case_id IS NOT NULL;
  CREATE INDEX appeals_by_time ON appeals(created_at);
  CREATE INDEX appeals_decided ON appeals(decided_at) WHERE decided_at IS NOT NULL;
  CREATE TABLE appeal_events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    appeal_id TEXT NOT NULL,
    decision_id TEXT NOT NULL UNIQUE,
    action TEXT NOT NULL,
    moderator_id TEXT,
    from_state TEXT,
    to_state TEXT NOT NULL,
    reason TEXT,
    at INTEGER NOT NULL,
    result TEXT
  );
  CREATE INDEX appeal_events_by_appeal ON appeal_events(appeal_id, seq);
  ALTER TABLE sanction_events ADD COLUMN cause TEXT;
  ALTER TABLE sanction_events ADD COLUMN appeal TEXT;
  `,
  // 13 (statements of reasons): each sanction's statement, JSON, stored unchanged from its creation;
  // NULL on sanctions of earlier versions. Sanctions by the time they took effect (a wave's
  // effectiveAt, else creation) for the transparency figures and the export's pages.
  `
  ALTER TABLE sanctions ADD COLUMN statement TEXT;
  CREATE INDEX sanctions_by_start ON sanctions(COALESCE(effective_at, created_at), id);
  `,
  // 14 (decisions at machine speed): a player's sanctions by state, so the ladder and an undo's
  // lift seek the few they need, and the tally by state reads the index alone. Done effects by
  // when they were done, for their pruning.
  `
  CREATE INDEX sanctions_by_user_state ON sanctions(user_id, state, category, blocks_login);
  CREATE INDEX effects_done ON effects(done_at) WHERE done_at IS NOT NULL;
  `,
  // 15 (trusted systems apart): an idempotency key belongs to the key that created its sanction
  // (moderator_id, the caller's API key), so one system's key never answers another's sanction;
  // the key's bound moderator is kept on the sanction (never the appeal's decider), taken for
  // earlier sanctions from their key (a key's binding never changes).
  `
  DROP INDEX sanctions_by_idempotency_key;
  CREATE UNIQUE INDEX sanctions_by_idempotency_key ON sanctions(moderator_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
  ALTER TABLE sanctions ADD COLUMN bound_moderator_id TEXT;
  UPDATE sanctions SET bound_moderator_id = (SELECT k.moderator_id FROM api_keys k WHERE k.key = sanctions.moderator_id) WHERE idempotency_key IS NOT NULL;
  `,
  // 16 (retention by cursor): captured items by key, so the sweep pages past the items a sanction
  // holds instead of reading them again on every page.
  `
  CREATE INDEX evidence_captured ON evidence_items(report_id, idx) WHERE state = 'captured';
  `,
  // 17 (privacy, docs/privacy.md): legal holds by target, the privacy audit trail, and a
  // reporter's reports by reporter (a data subject request finds them without reading every report;
  // it costs each stored report one more index entry, docs/decisions.md).
  `
  CREATE TABLE privacy_holds (
    id TEXT PRIMARY KEY,
    target_type TEXT NOT NULL,
    target_id TEXT NOT NULL,
    reason TEXT NOT NULL,
    until INTEGER,
    placed_by TEXT NOT NULL,
    placed_at INTEGER NOT NULL,
    released_at INTEGER,
    released_by TEXT,
    release_reason TEXT
  );
  CREATE INDEX privacy_holds_by_target ON privacy_holds(target_type, target_id);
  CREATE TABLE privacy_audit (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    action TEXT NOT NULL,
    request_id TEXT NOT NULL,
    subject_ref TEXT NOT NULL,
    actor TEXT NOT NULL,
    at INTEGER NOT NULL,
    detail TEXT NOT NULL
  );
  CREATE INDEX reports_by_reporter ON reports(reporter_platform, reporter_id, id);
  `,
  // 18 (retention, docs/privacy.md#retention): decided cases by state and decision time, and
  // decided appeals by decision time then id, for the retention sweep's pages; where each kind's
  // last sweep stopped, and the cases and appeals something kept, examined again by every sweep;
  // the players an erasure named, until the sweep replaces their id by a pseudonym. Open cases are
  // not in the new index: a stored report does not pay for it.
  `
  CREATE INDEX cases_decided ON cases(state, updated_at, id) WHERE state IN ('approved', 'dismissed');
  DROP INDEX appeals_decided;
  CREATE INDEX appeals_decided ON appeals(decided_at, id) WHERE decided_at IS NOT NULL;
  CREATE TABLE retention_marks (
    key TEXT PRIMARY KEY,
    at INTEGER NOT NULL,
    id TEXT NOT NULL
  );
  CREATE TABLE retention_waiting (
    kind TEXT NOT NULL,
    id TEXT NOT NULL,
    PRIMARY KEY (kind, id)
  ) WITHOUT ROWID;
  CREATE TABLE privacy_erased_players (
    user_id TEXT PRIMARY KEY,
    erased_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  `,
  // 19 (privacy): the embedded chat recorder's messages by channel, for a reporter's erasure to
  // find the DMs sent to them (channel dm:<reporterId>).
  `
  CREATE INDEX messages_by_channel ON messages(channel);
  `,
];
