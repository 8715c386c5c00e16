-- 1: identity, settings, rate limits, workspace
CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
      CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        plan TEXT NOT NULL,
        scopes TEXT NOT NULL DEFAULT '',
        is_default INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE api_keys (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        key_hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        revoked_at INTEGER
      );
      CREATE TABLE rate_events (
        user_id INTEGER NOT NULL,
        bucket TEXT NOT NULL,
        at INTEGER NOT NULL
      );
      CREATE INDEX rate_events_by_user ON rate_events(user_id, bucket, at);
      CREATE TABLE folders (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name TEXT NOT NULL COLLATE NOCASE,
        created_at INTEGER NOT NULL,
        UNIQUE (user_id, name)
      );
      CREATE TABLE saved_channels (
        folder_id INTEGER NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        channel_id TEXT NOT NULL,
        saved_at INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        PRIMARY KEY (folder_id, channel_id)
      );
      CREATE INDEX saved_channels_by_user ON saved_channels(user_id, channel_id);

-- 2: jobs
-- One table for both families: channel jobs (integer id, queued/running/completed/failed)
      -- and task jobs (generation, analysis: string public_id, pending/processing/completed/failed).
      CREATE TABLE jobs (
        id INTEGER PRIMARY KEY,
        public_id TEXT UNIQUE,
        kind TEXT NOT NULL,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        state TEXT NOT NULL,
        input TEXT NOT NULL,
        result TEXT,
        error TEXT,
        idempotency_key TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        requested_at INTEGER NOT NULL,
        claimed_at INTEGER,
        finished_at INTEGER,
        lease_owner TEXT,
        lease_expires_at INTEGER,
        UNIQUE (user_id, kind, idempotency_key)
      );
      CREATE INDEX jobs_by_state ON jobs(state, requested_at);
      CREATE INDEX jobs_by_user ON jobs(user_id, state);

-- 3: job workers, channel index
-- Worker hosts alive on this data dir, refreshed by heartbeat; a 'starting' row reserves the
      -- spawn of a detached worker so two CLI processes do not both start one.
      CREATE TABLE job_workers (
        id TEXT PRIMARY KEY,
        pid INTEGER NOT NULL,
        mode TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        heartbeat_at INTEGER NOT NULL
      );
      CREATE INDEX jobs_by_lease ON jobs(state, lease_expires_at);
      -- What channel processing learned: the channels the service now knows (its index).
      CREATE TABLE indexed_channels (
        channel_id TEXT PRIMARY KEY,
        handle TEXT,
        title TEXT NOT NULL,
        language TEXT,
        country TEXT,
        category TEXT,
        content_type TEXT,
        subscribers INTEGER NOT NULL,
        total_views INTEGER NOT NULL,
        video_count INTEGER NOT NULL,
        eligible INTEGER NOT NULL,
        ineligible_reasons TEXT NOT NULL DEFAULT '[]',
        first_processed_at INTEGER NOT NULL,
        last_processed_at INTEGER NOT NULL,
        last_job_id INTEGER
      );
      CREATE TABLE indexed_videos (
        video_id TEXT PRIMARY KEY,
        channel_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        title TEXT NOT NULL,
        views INTEGER NOT NULL,
        duration_seconds INTEGER NOT NULL,
        published_at TEXT NOT NULL,
        indexed_at INTEGER NOT NULL
      );
      CREATE INDEX indexed_videos_by_channel ON indexed_videos(channel_id, published_at);

-- 4: voices
-- Users' clones of both providers; built-in voices come from the speech catalog.
      CREATE TABLE voices (
        id INTEGER PRIMARY KEY,
        public_id TEXT NOT NULL UNIQUE,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        provider TEXT NOT NULL,
        name TEXT NOT NULL,
        language TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        tags TEXT NOT NULL DEFAULT '[]',
        profile TEXT NOT NULL,
        sample_path TEXT NOT NULL,
        upstream_id TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX voices_by_user ON voices(user_id, provider);
      -- The alt provider's own voice library, as the local stand-in for the upstream service.
      CREATE TABLE alt_provider_voices (
        upstream_id TEXT PRIMARY KEY,
        language TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );

-- 5: downloads
-- Rendered downloads, one file per (video, format, quality, time range), shared by every
      -- user. 'rendering' rows belong to the download slot whose request renders them; 'ready'
      -- rows expire (about 30 days) and are swept with their files.
      CREATE TABLE download_files (
        cache_key TEXT PRIMARY KEY,
        video_id TEXT NOT NULL,
        format TEXT NOT NULL,
        path TEXT NOT NULL,
        state TEXT NOT NULL,
        render_slot TEXT,
        size_bytes INTEGER,
        duration_seconds REAL,
        ready_at INTEGER,
        expires_at INTEGER
      );
      CREATE INDEX download_files_by_expiry ON download_files(state, expires_at);
      -- Downloads in progress, one row per request: the parallel cap counts a user's rows. Each
      -- row is a lease its process renews while it works; a row whose process is gone or whose
      -- lease ran out is freed by the next request. (The hourly cap counts rate_events.)
      CREATE TABLE download_slots (
        id TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        acquired_at INTEGER NOT NULL,
        expected_done_at INTEGER NOT NULL,
        lease_expires_at INTEGER NOT NULL
      );
      CREATE INDEX download_slots_by_user ON download_slots(user_id);

-- 6: channel checks: managed-network verdicts, live-check claims, ad verdicts, external monetization
-- Managed-network (CMS) verdicts the service holds: the pre-checked index, copied from the
      -- sample world whenever it is (re)built, and every live check's. Channel figures are as seen
      -- at check time, so network browse and rosters read this table alone.
      CREATE TABLE cms_verdicts (
        channel_id TEXT PRIMARY KEY,
        status TEXT NOT NULL CHECK (status IN ('managed', 'not_managed')),
        oid TEXT,
        checked_at INTEGER NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('precheck', 'live')),
        name TEXT NOT NULL,
        subscribers INTEGER NOT NULL,
        avg_views INTEGER NOT NULL,
        language TEXT,
        category TEXT
      ) WITHOUT ROWID;
      CREATE INDEX cms_verdicts_by_owner ON cms_verdicts(oid, subscribers DESC) WHERE status = 'managed';
      -- Owners named by verdicts (never their e-mail).
      CREATE TABLE cms_owners (
        oid TEXT PRIMARY KEY,
        name TEXT,
        type TEXT,
        industry TEXT
      ) WITHOUT ROWID;
      -- One live check per channel at a time: the request holding the claim runs it; others asking
      -- meanwhile (any process) wait for its outcome. A claim whose lease ran out is taken over.
      CREATE TABLE cms_live_checks (
        channel_id TEXT PRIMARY KEY,
        token TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        lease_expires_at INTEGER NOT NULL,
        finished_at INTEGER,
        outcome TEXT
      ) WITHOUT ROWID;
      -- Ad monetization: each channel's last verdict (1, 0, or NULL = unknown) and when each state was last seen.
      CREATE TABLE ad_verdicts (
        channel_id TEXT PRIMARY KEY,
        monetized INTEGER,
        reason TEXT NOT NULL,
        last_checked_at INTEGER NOT NULL,
        last_seen_monetized_at INTEGER,
        last_seen_demonetized_at INTEGER
      ) WITHOUT ROWID;
      -- External monetization: each channel's last stored classifier result (JSON) and its version.
      CREATE TABLE external_monetization (
        channel_id TEXT PRIMARY KEY,
        classifier_version TEXT NOT NULL,
        classified_at INTEGER NOT NULL,
        result TEXT NOT NULL
      ) WITHOUT ROWID;

-- 7: video analysis uploads
-- Videos a user sent to the vision model: a repeat analysis of the same video by the same user
      -- within 2 hours reuses the upload. Keyed per (user, video); other users never share it.
      CREATE TABLE analysis_uploads (
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        video_id TEXT NOT NULL,
        uploaded_at INTEGER NOT NULL,
        PRIMARY KEY (user_id, video_id)
      ) WITHOUT ROWID;

-- 8: alerts, triggered channels, collab growth
-- Saved alerts. last_* describe the alert's latest evaluation: when (wall clock), at which
      -- world time, in which cycle, and how many channels were new in it; eval_updated_at is the
      -- updated_at the evaluation saw (an edit makes the alert due again).
      CREATE TABLE alerts (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        alert_type TEXT NOT NULL,
        content_type TEXT NOT NULL,
        filters TEXT NOT NULL,
        enabled INTEGER NOT NULL DEFAULT 1,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        last_evaluated_at INTEGER,
        last_world_ms INTEGER,
        last_cycle_id INTEGER,
        last_new_channels INTEGER NOT NULL DEFAULT 0,
        eval_updated_at INTEGER
      );
      CREATE INDEX alerts_by_user ON alerts(user_id, id);
      CREATE TABLE alert_cycles (
        id INTEGER PRIMARY KEY,
        reason TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        world_ms INTEGER NOT NULL,
        alerts_evaluated INTEGER NOT NULL DEFAULT 0,
        new_channels INTEGER NOT NULL DEFAULT 0
      );
      -- One row per distinct trigger of a user (channel, type, key: e.g. the outlier video), merged
      -- across the user's alerts; alert_hit_alerts says which alerts it came from and when.
      CREATE TABLE alert_hits (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        channel_id TEXT NOT NULL,
        alert_type TEXT NOT NULL,
        trigger_key TEXT NOT NULL,
        handle TEXT,
        title TEXT NOT NULL,
        reason TEXT NOT NULL,
        figures TEXT NOT NULL,
        world_ms INTEGER NOT NULL,
        last_cycle_id INTEGER NOT NULL,
        last_triggered_at INTEGER NOT NULL,
        UNIQUE (user_id, channel_id, alert_type, trigger_key)
      );
      CREATE INDEX alert_hits_feed ON alert_hits(user_id, last_cycle_id, id);
      CREATE TABLE alert_hit_alerts (
        alert_id INTEGER NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
        hit_id INTEGER NOT NULL REFERENCES alert_hits(id) ON DELETE CASCADE,
        cycle_id INTEGER NOT NULL,
        triggered_at INTEGER NOT NULL,
        PRIMARY KEY (alert_id, hit_id)
      );
      CREATE INDEX alert_hit_alerts_by_hit ON alert_hit_alerts(hit_id);
      CREATE INDEX alert_hit_alerts_feed ON alert_hit_alerts(alert_id, cycle_id, hit_id);
      -- Collab growth, computed every 6 hours of world time for every checked channel.
      CREATE TABLE collab_growth_runs (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        world_generated_at TEXT NOT NULL,
        computed_at_ms INTEGER NOT NULL,
        growth_through TEXT NOT NULL,
        computed_wall_ms INTEGER NOT NULL
      );
      CREATE TABLE collab_growth (
        channel_id TEXT PRIMARY KEY,
        channel_idx INTEGER NOT NULL,
        handle TEXT,
        title TEXT NOT NULL,
        language TEXT,
        subscribers INTEGER NOT NULL,
        subs_7d INTEGER NOT NULL,
        subs_30d INTEGER NOT NULL,
        views_7d INTEGER NOT NULL,
        views_30d INTEGER NOT NULL,
        subs_start_7d INTEGER NOT NULL,
        subs_start_30d INTEGER NOT NULL,
        views_start_7d INTEGER NOT NULL,
        views_start_30d INTEGER NOT NULL,
        partners INTEGER NOT NULL,
        collab_videos INTEGER NOT NULL,
        latest_collab_ms INTEGER
      );
      CREATE INDEX collab_growth_partners ON collab_growth(partners);

-- 9: folder name keys: NFC and full Unicode case folding
-- name_key is nameKey(name) (src/core/name-key.ts), registered as an SQL function on every
      -- connection. COLLATE NOCASE folds ASCII only, so "Café" and "CAFÉ" both fitted; the key
      -- catches them. Not UNIQUE: folders saved before this rule may already collide, and keep
      -- their names; new names are checked against the key in the same transaction that saves them.
      ALTER TABLE folders ADD COLUMN name_key TEXT;
      UPDATE folders SET name_key = name_key(name);
      CREATE INDEX folders_by_name_key ON folders(user_id, name_key);

-- 10: managed-network signals of live checks
-- The public signals a live check's managed-network verdict rests on (JSON list of
      -- {id, evidence, url}), written with the verdict on the live platform; answers from the stored
      -- verdict carry them. The sample world's verdicts have none.
      CREATE TABLE cms_signals (
        channel_id TEXT PRIMARY KEY,
        signals TEXT NOT NULL
      ) WITHOUT ROWID;

-- 11: video analysis upload handles
-- What a vision model's upload left to reuse (JSON): the Gemini file's name and URI, or the
      -- folder of a chat model's frames. NULL for the sample world's stand-in, which keeps nothing.
      ALTER TABLE analysis_uploads ADD COLUMN handle TEXT;

-- 12: the live index: channels read, snapshots, videos and their channels, refresh claims; collab growth figures may be unknown
-- What reads of the live platform taught the engine (src/engine/index/live/). A channel gets
      -- its idx when it first becomes known: read, or listed on a collab video (then first_read_ms
      -- stays NULL until it is read). Figures are the latest read's; NULL where the site hid them.
      CREATE TABLE live_channels (
        idx INTEGER PRIMARY KEY,
        channel_id TEXT NOT NULL UNIQUE,
        handle TEXT,
        title TEXT,
        description TEXT NOT NULL DEFAULT '',
        language TEXT,
        language_code TEXT,
        country TEXT,
        category TEXT,
        content_type TEXT,
        subscribers INTEGER,
        total_views INTEGER,
        video_count INTEGER,
        created_at TEXT,
        thumbnail_url TEXT,
        first_read_ms INTEGER,
        last_read_ms INTEGER,
        -- active, terminated or missing, as the latest read found it (state_at_ms: when first found so)
        state TEXT NOT NULL DEFAULT 'active',
        state_reason TEXT,
        state_at_ms INTEGER,
        collab_scanned INTEGER NOT NULL DEFAULT 0,
        -- newest long video and short published (ms; 0 when none is known), for alert scans
        last_long_ms INTEGER NOT NULL DEFAULT 0,
        last_short_ms INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX live_channels_by_creation ON live_channels(created_at) WHERE first_read_ms IS NOT NULL;
      -- One row per read of a channel: the history behind every 24h/48h/7d/30d figure.
      CREATE TABLE live_snapshots (
        channel_idx INTEGER NOT NULL,
        at_ms INTEGER NOT NULL,
        subscribers INTEGER,
        views INTEGER,
        videos INTEGER,
        PRIMARY KEY (channel_idx, at_ms)
      ) WITHOUT ROWID;
      -- Videos read: from a channel's tabs (estimated dates) or its watch page (exact date, and the
      -- channels it lists: members_read = 1).
      CREATE TABLE live_videos (
        video_id TEXT PRIMARY KEY,
        channel_idx INTEGER NOT NULL,
        kind TEXT NOT NULL,
        title TEXT NOT NULL,
        views INTEGER NOT NULL,
        duration_seconds INTEGER NOT NULL,
        published_ms INTEGER,
        published_exact INTEGER NOT NULL DEFAULT 0,
        first_seen_ms INTEGER NOT NULL,
        read_ms INTEGER NOT NULL,
        members_read INTEGER NOT NULL DEFAULT 0
      );
      -- Covering what alert scans read of a channel's newest uploads: no lookup of the row per video.
      CREATE INDEX live_videos_by_channel ON live_videos(channel_idx, kind, published_ms, views, video_id);
      -- The channels a collab video lists (position 0: the host); solo videos have no rows.
      CREATE TABLE live_video_members (
        video_id TEXT NOT NULL,
        channel_idx INTEGER NOT NULL,
        position INTEGER NOT NULL,
        PRIMARY KEY (video_id, channel_idx)
      ) WITHOUT ROWID;
      CREATE INDEX live_video_members_by_channel ON live_video_members(channel_idx);
      -- The refresh sweep's claims (a lease per channel, so two processes never read one channel
      -- at once) and its failures.
      CREATE TABLE live_refresh (
        channel_idx INTEGER PRIMARY KEY,
        lease_owner TEXT,
        lease_expires_ms INTEGER,
        last_attempt_ms INTEGER,
        failures INTEGER NOT NULL DEFAULT 0,
        last_error TEXT
      );
      -- Collab growth: a live channel's figures are unknown for days its snapshots do not cover.
      -- The table is derived (recomputed every 6 hours of platform time), so it is rebuilt empty.
      DROP TABLE collab_growth;
      CREATE TABLE collab_growth (
        channel_id TEXT PRIMARY KEY,
        channel_idx INTEGER NOT NULL,
        handle TEXT,
        title TEXT NOT NULL,
        language TEXT,
        subscribers INTEGER,
        subs_7d INTEGER,
        subs_30d INTEGER,
        views_7d INTEGER,
        views_30d INTEGER,
        subs_start_7d INTEGER,
        subs_start_30d INTEGER,
        views_start_7d INTEGER,
        views_start_30d INTEGER,
        partners INTEGER NOT NULL,
        collab_videos INTEGER NOT NULL,
        latest_collab_ms INTEGER
      );
      CREATE INDEX collab_growth_partners ON collab_growth(partners);
      DELETE FROM collab_growth_runs;

-- 13: events outbox and webhook endpoints, deliveries and attempts
-- What happened to a user's watched world, written in the transaction of its cause; seq is the
      -- cursor `alerts watch` and GET /api/events follow (features/events/).
      CREATE TABLE events (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        type TEXT NOT NULL,
        alert_id INTEGER,
        occurred_at INTEGER NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX events_by_user ON events(user_id, seq);
      CREATE TABLE webhook_endpoints (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        url TEXT NOT NULL,
        events TEXT NOT NULL,
        alert_id INTEGER,
        secret TEXT NOT NULL,
        enabled INTEGER NOT NULL DEFAULT 1,
        disabled_reason TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX webhook_endpoints_by_user ON webhook_endpoints(user_id, id);
      -- One row per (endpoint, event), made with the event; its lease is the claim of one worker.
      CREATE TABLE webhook_deliveries (
        id INTEGER PRIMARY KEY,
        endpoint_id INTEGER NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        event_seq INTEGER NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending',
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        lease_owner TEXT,
        lease_expires_at INTEGER,
        last_status INTEGER,
        last_error TEXT,
        last_duration_ms INTEGER,
        last_attempt_at INTEGER,
        delivered_at INTEGER,
        created_at INTEGER NOT NULL,
        UNIQUE (endpoint_id, event_seq)
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries(state, endpoint_id, event_seq);
      CREATE TABLE webhook_attempts (
        delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
        attempt INTEGER NOT NULL,
        at INTEGER NOT NULL,
        status INTEGER,
        duration_ms INTEGER NOT NULL,
        error TEXT,
        PRIMARY KEY (delivery_id, attempt)
      );

-- 14: jobs run with the settings of the command that submitted them
-- A digest of the submitting command's job settings (salted, so no secret is derivable from
      -- it): only a worker started with the same settings claims the job. NULL: any worker.
      ALTER TABLE jobs ADD COLUMN settings_digest TEXT;
      ALTER TABLE job_workers ADD COLUMN settings_digest TEXT;

-- 15: figures the live site did not give are NULL, not 0: live videos, cms verdicts, indexed channels and videos
-- SQLite cannot drop NOT NULL in place: each table is rebuilt with the same rows. A length of
      -- 0 on a video that is not upcoming was a listing that gave none (Shorts): it becomes unknown.
      CREATE TABLE live_videos_new (
        video_id TEXT PRIMARY KEY,
        channel_idx INTEGER NOT NULL,
        kind TEXT NOT NULL,
        title TEXT NOT NULL,
        views INTEGER,
        duration_seconds INTEGER,
        published_ms INTEGER,
        published_exact INTEGER NOT NULL DEFAULT 0,
        first_seen_ms INTEGER NOT NULL,
        read_ms INTEGER NOT NULL,
        members_read INTEGER NOT NULL DEFAULT 0
      );
      INSERT INTO live_videos_new (video_id, channel_idx, kind, title, views, duration_seconds, published_ms, published_exact, first_seen_ms, read_ms, members_read)
        SELECT video_id, channel_idx, kind, title, views,
          CASE WHEN duration_seconds = 0 AND kind <> 'upcoming' THEN NULL ELSE duration_seconds END,
          published_ms, published_exact, first_seen_ms, read_ms, members_read
        FROM live_videos;
      DROP TABLE live_videos;
      ALTER TABLE live_videos_new RENAME TO live_videos;
      CREATE INDEX live_videos_by_channel ON live_videos(channel_idx, kind, published_ms, views, video_id);
      -- A channel checked on the live site may hide its subscriber count: the verdict keeps it unknown.
      CREATE TABLE cms_verdicts_new (
        channel_id TEXT PRIMARY KEY,
        status TEXT NOT NULL CHECK (status IN ('managed', 'not_managed')),
        oid TEXT,
        checked_at INTEGER NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('precheck', 'live')),
        name TEXT NOT NULL,
        subscribers INTEGER,
        avg_views INTEGER,
        language TEXT,
        category TEXT
      ) WITHOUT ROWID;
      INSERT INTO cms_verdicts_new SELECT channel_id, status, oid, checked_at, source, name, subscribers, avg_views, language, category FROM cms_verdicts;
      DROP TABLE cms_verdicts;
      ALTER TABLE cms_verdicts_new RENAME TO cms_verdicts;
      CREATE INDEX cms_verdicts_by_owner ON cms_verdicts(oid, subscribers DESC) WHERE status = 'managed';
      -- Channel processing on the live site: a hidden count, a short's length and date stay unknown.
      CREATE TABLE indexed_channels_new (
        channel_id TEXT PRIMARY KEY,
        handle TEXT,
        title TEXT NOT NULL,
        language TEXT,
        country TEXT,
        category TEXT,
        content_type TEXT,
        subscribers INTEGER,
        total_views INTEGER,
        video_count INTEGER,
        eligible INTEGER NOT NULL,
        ineligible_reasons TEXT NOT NULL DEFAULT '[]',
        first_processed_at INTEGER NOT NULL,
        last_processed_at INTEGER NOT NULL,
        last_job_id INTEGER
      );
      INSERT INTO indexed_channels_new SELECT channel_id, handle, title, language, country, category, content_type, subscribers, total_views,
        video_count, eligible, ineligible_reasons, first_processed_at, last_processed_at, last_job_id FROM indexed_channels;
      DROP TABLE indexed_channels;
      ALTER TABLE indexed_channels_new RENAME TO indexed_channels;
      CREATE TABLE indexed_videos_new (
        video_id TEXT PRIMARY KEY,
        channel_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        title TEXT NOT NULL,
        views INTEGER,
        duration_seconds INTEGER,
        published_at TEXT,
        indexed_at INTEGER NOT NULL
      );
      INSERT INTO indexed_videos_new SELECT video_id, channel_id, kind, title, views, duration_seconds, NULLIF(published_at, ''), indexed_at FROM indexed_videos;
      DROP TABLE indexed_videos;
      ALTER TABLE indexed_videos_new RENAME TO indexed_videos;
      CREATE INDEX indexed_videos_by_channel ON indexed_videos(channel_id, published_at);
