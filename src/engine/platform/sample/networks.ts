/**
 * Managed networks (CMS owners) of the sample world, and which channels they manage.
 *
 * Truth, per channel (stream `cms`, channel idx): whether a network manages it — about a fifth of
 * longform channels, fewer mixed and shorts ones — and which. A channel joins a network of its own
 * industry (Music channels join record labels, Gaming channels gaming networks…); within an
 * industry the network is drawn from a Zipf-like law over an unbounded sequence of networks, so a
 * few networks are big and most are small, and channel i's owner depends only on (seed, i): a
 * smaller world is still the prefix of a bigger one.
 *
 * The hosted service's pre-checked index is world data too: about two thirds of longform channels
 * were checked some days before the reference date. About 5% of those verdicts are stale (the
 * channel joined or left a network since), so a live re-check can disagree with the stored one.
 *
 * A network (stream `networks`, keyed by industry and rank) has a stable `oid` (22 base64url
 * characters, unique by construction), a type, its industry, a name — null for the ~15% never
 * seen by name, and a few generic names shared by several networks (grouping is by oid) — and
 * sometimes an owner e-mail, which stays in the world.
 */
import type Database from 'better-sqlite3';
import type { PrecheckedVerdict } from '../../index/prechecked.js';
import type { NetworkOwner } from '../networks.js';
import type { NetworkReads } from '../platform.js';
import { DAY_MS } from '../../dates.js';
import type { GenerationContext, WorldEntity } from './entity.js';
import { feistel64, idKeys, type IdKeys } from './ids.js';
import { mix32, rngFor, streamSeed, type Rng } from './prng.js';
import { ADJECTIVES, SURNAMES, type ContentType } from './words.js';

/** Industries networks work in, and the channel categories each takes in. */
export const NETWORK_INDUSTRIES = [
  'Gaming', 'Entertainment', 'Film & TV', 'Lifestyle', 'Music', 'Education', 'Technology', 'Sports', 'News & Media', 'Kids & Family',
] as const;
export type NetworkIndustry = (typeof NETWORK_INDUSTRIES)[number];

const INDUSTRY_OF_CATEGORY: Record<string, NetworkIndustry> = {
  Gaming: 'Gaming',
  Entertainment: 'Entertainment',
  Comedy: 'Entertainment',
  'Film & Animation': 'Film & TV',
  'People & Blogs': 'Lifestyle',
  'Howto & Style': 'Lifestyle',
  'Travel & Events': 'Lifestyle',
  'Pets & Animals': 'Lifestyle',
  Music: 'Music',
  Education: 'Education',
  'Science & Technology': 'Technology',
  Sports: 'Sports',
  'Autos & Vehicles': 'Sports',
  News: 'News & Media',
  Kids: 'Kids & Family',
};

/** Share of channels of each content type that a network manages (longform-heavy, as on the platform). */
const MANAGED_SHARE: Record<ContentType, number> = { longform: 0.2, mixed: 0.1, shorts: 0.04 };
/** Share of longform channels in the hosted service's pre-checked index. */
const PRECHECKED_SHARE = 2 / 3;
/** Share of pre-checked verdicts the channel has since moved away from. */
const STALE_SHARE = 0.05;
/** Zipf-like spread of channels over an industry's networks: P(rank ≥ k) = 1 / (1 + k / SPREAD). */
const RANK_SPREAD = 3;
const MAX_RANK = 10_000_000;
/** Pre-checks happened between these many days before the reference date. */
const PRECHECK_AGE_DAYS = [2, 400] as const;
/** Rows read per query while generating and listing (a statement being iterated blocks writes). */
const PAGE = 10_000;

const UNNAMED_SHARE = 0.15;
const GENERIC_NAME_SHARE = 0.08;
const GENERIC_NAMES = ['Digital Media Group', 'Creator Network', 'Global Media Partners'];
const NAME_WORDS = [
  'Northwind', 'Bluepeak', 'Silverline', 'Redwood', 'Brightwave', 'Ironbridge', 'Sunfield', 'Harbor', 'Maple', 'Orbit',
  'Nimbus', 'Cobalt', 'Lantern', 'Summit', 'Meridian', 'Atlas', 'Beacon', 'Willow', 'Falcon', 'Crescent',
];
const INDUSTRY_WORDS: Record<NetworkIndustry, readonly string[]> = {
  Gaming: ['Games', 'Play', 'Esports', 'Gaming Network'],
  Entertainment: ['Entertainment', 'Media', 'Studios', 'Network'],
  'Film & TV': ['Pictures', 'Studios', 'Films', 'Animation'],
  Lifestyle: ['Lifestyle', 'Creators', 'Media', 'Collective'],
  Music: ['Records', 'Sound', 'Music Group', 'Audio'],
  Education: ['Learning', 'Academy', 'Education', 'Knowledge'],
  Technology: ['Digital', 'Labs', 'Tech Media', 'Interactive'],
  Sports: ['Sports', 'Athletics', 'Motorsport', 'Sports Media'],
  'News & Media': ['News Group', 'Broadcasting', 'Press', 'Media'],
  'Kids & Family': ['Kids', 'Family Studios', 'Junior', 'Playtime'],
};
const TYPES_BY_INDUSTRY: Record<NetworkIndustry, ReadonlyArray<readonly [string, number]>> = {
  Gaming: [['Multi-channel network', 6], ['Game publisher', 3], ['Talent agency', 1]],
  Entertainment: [['Multi-channel network', 6], ['Media company', 3], ['Talent agency', 1]],
  'Film & TV': [['Media company', 5], ['Studio', 4], ['Multi-channel network', 2]],
  Lifestyle: [['Multi-channel network', 6], ['Talent agency', 3], ['Brand', 1]],
  Music: [['Record label', 6], ['Music distributor', 3], ['Multi-channel network', 1]],
  Education: [['Multi-channel network', 5], ['Media company', 3], ['Publisher', 2]],
  Technology: [['Multi-channel network', 5], ['Media company', 3], ['Brand', 2]],
  Sports: [['Multi-channel network', 4], ['Sports league', 3], ['Broadcaster', 3]],
  'News & Media': [['Broadcaster', 5], ['Media company', 4], ['Publisher', 2]],
  'Kids & Family': [['Media company', 5], ['Studio', 3], ['Multi-channel network', 2]],
};

export type { NetworkOwner, PrecheckedVerdict };

const NETWORK_DDL = `
CREATE TABLE world_networks (
  oid         TEXT PRIMARY KEY,      -- stable owner id, 22 base64url chars
  industry    TEXT NOT NULL,
  rank        INTEGER NOT NULL,      -- position in the industry's sequence of networks
  name        TEXT,                  -- NULL: never seen by name
  type        TEXT NOT NULL,
  owner_email TEXT                   -- world only: never leaves the engine
) WITHOUT ROWID`;

const CMS_DDL = `
CREATE TABLE world_cms (
  idx           INTEGER PRIMARY KEY, -- channel idx
  channel_id    TEXT NOT NULL,
  oid           TEXT,                -- network managing the channel now; NULL = not managed
  precheck_oid  TEXT,                -- what the pre-check found; NULL = not managed
  prechecked_at INTEGER              -- ms; NULL = not in the pre-checked index
)`;

const CMS_COLUMNS = 5;
/** Rows per INSERT: multi-row inserts cut per-statement overhead on big worlds. */
const INSERT_BATCH = 64;
const insertCmsSql = (rows: number): string => `INSERT INTO world_cms VALUES ${Array(rows).fill('(?, ?, ?, ?, ?)').join(', ')}`;

interface NetworkKey {
  industry: number;
  rank: number;
}

/** 22-character owner id: a keyed permutation of (industry, rank) plus 64 keyed bits. */
function ownerId(keys: IdKeys, key: NetworkKey): string {
  const [a, b] = feistel64(keys, key.industry, key.rank);
  const c = mix32(keys.tail, a);
  const d = mix32(c, b);
  const bytes = Buffer.alloc(16);
  bytes.writeUInt32BE(a, 0);
  bytes.writeUInt32BE(b, 4);
  bytes.writeUInt32BE(c, 8);
  bytes.writeUInt32BE(d, 12);
  return bytes.toString('base64url');
}

function drawRank(rng: Rng): number {
  const u = 1 - rng.next(); // (0, 1]
  return Math.min(MAX_RANK, Math.floor(RANK_SPREAD * (1 / u - 1)));
}

function pickWeighted(rng: Rng, entries: ReadonlyArray<readonly [string, number]>): string {
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  let x = rng.next() * total;
  for (const [value, weight] of entries) {
    x -= weight;
    if (x < 0) return value;
  }
  return entries[entries.length - 1]![0];
}

function networkName(rng: Rng, industry: NetworkIndustry): string | null {
  if (rng.chance(UNNAMED_SHARE)) return null;
  if (rng.chance(GENERIC_NAME_SHARE)) return rng.pick(GENERIC_NAMES);
  const word = rng.pick(NAME_WORDS);
  const suffix = rng.pick(INDUSTRY_WORDS[industry]);
  switch (rng.int(0, 3)) {
    case 0:
      return `${word} ${suffix}`;
    case 1:
      return `${rng.pick(SURNAMES)} ${suffix}`;
    case 2:
      return `${rng.pick(ADJECTIVES)} ${word} ${suffix}`;
    default:
      return `${rng.pick(SURNAMES)} & ${rng.pick(SURNAMES)} ${suffix}`;
  }
}

function ownerEmail(rng: Rng, name: string | null, oid: string): string | null {
  if (rng.chance(0.2)) return null;
  const slug = (name ?? `rights-${oid.slice(0, 6)}`).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return `${rng.pick(['partners', 'cms', 'rights', 'hello'])}@${slug}.example`;
}

interface NetworkRow extends NetworkOwner {
  rank: number;
  owner_email: string | null;
}

/** Derives networks and memberships of one world. */
class NetworkGenerator {
  private readonly cmsStream: number;
  private readonly networkStream: number;
  private readonly keys: IdKeys;

  constructor(seed: string) {
    this.cmsStream = streamSeed(seed, 'cms');
    this.networkStream = streamSeed(seed, 'networks');
    this.keys = idKeys(seed, 'network');
  }

  network(key: NetworkKey): NetworkRow {
    const rng = rngFor(mix32(this.networkStream, key.industry), key.rank);
    const industry = NETWORK_INDUSTRIES[key.industry]!;
    const oid = ownerId(this.keys, key);
    const type = pickWeighted(rng, TYPES_BY_INDUSTRY[industry]);
    const name = networkName(rng, industry);
    return { oid, name, type, industry, rank: key.rank, owner_email: ownerEmail(rng, name, oid) };
  }

  /** Owner now, pre-check verdict and time of one channel; `null` fields mean none. */
  membership(idx: number, contentType: ContentType, category: string, refDay: number) {
    const rng = rngFor(this.cmsStream, idx);
    const industry = NETWORK_INDUSTRIES.indexOf(INDUSTRY_OF_CATEGORY[category] ?? 'Entertainment');
    const managed = rng.chance(MANAGED_SHARE[contentType]);
    const owner: NetworkKey | null = managed ? { industry, rank: drawRank(rng) } : null;
    const prechecked = contentType === 'longform' && rng.chance(PRECHECKED_SHARE);
    if (!prechecked) return { owner, precheck: null, prechecked_at: null };
    const stale = rng.chance(STALE_SHARE);
    const precheck: NetworkKey | null = !stale ? owner : owner ? null : { industry, rank: drawRank(rng) };
    const ageMs = rng.float(PRECHECK_AGE_DAYS[0], PRECHECK_AGE_DAYS[1]) * DAY_MS;
    return { owner, precheck, prechecked_at: Math.round((refDay + 1) * DAY_MS - ageMs) };
  }
}

export const networksEntity: WorldEntity = {
  name: 'networks',
  createTables(db: Database.Database) {
    db.exec(NETWORK_DDL);
    db.exec(CMS_DDL);
  },
  generate(ctx: GenerationContext) {
    const generator = new NetworkGenerator(ctx.params.seed);
    // Read in pages: better-sqlite3 cannot write while a statement is being iterated.
    const page = ctx.db.prepare<[number, number], { idx: number; channel_id: string; content_type: ContentType; category: string }>(
      'SELECT idx, channel_id, content_type, category FROM world_channels WHERE idx >= ? ORDER BY idx LIMIT ?',
    );
    const insertCms = ctx.db.prepare(insertCmsSql(INSERT_BATCH));
    const networks = new Map<string, NetworkRow>();
    const oidOf = (key: NetworkKey | null): string | null => {
      if (!key) return null;
      const id = `${key.industry}/${key.rank}`;
      let row = networks.get(id);
      if (!row) {
        row = generator.network(key);
        networks.set(id, row);
      }
      return row.oid;
    };
    let managed = 0;
    let prechecked = 0;
    let values: unknown[] = [];
    for (let from = 0; ; from += PAGE) {
      const rows = page.all(from, PAGE);
      if (rows.length === 0) break;
      for (const channel of rows) {
        const member = generator.membership(channel.idx, channel.content_type, channel.category, ctx.refDay);
        if (!member.owner && member.prechecked_at === null) continue;
        if (member.owner) managed += 1;
        if (member.prechecked_at !== null) prechecked += 1;
        values.push(channel.idx, channel.channel_id, oidOf(member.owner), oidOf(member.precheck), member.prechecked_at);
        if (values.length === INSERT_BATCH * CMS_COLUMNS) {
          insertCms.run(values);
          values = [];
        }
      }
    }
    if (values.length > 0) ctx.db.prepare(insertCmsSql(values.length / CMS_COLUMNS)).run(values);
    const insertNetwork = ctx.db.prepare('INSERT INTO world_networks VALUES (?, ?, ?, ?, ?, ?)');
    for (const row of networks.values()) insertNetwork.run(row.oid, row.industry, row.rank, row.name, row.type, row.owner_email);
    ctx.meta.network_count = networks.size;
    ctx.meta.managed_channels = managed;
    ctx.meta.prechecked_channels = prechecked;
  },
  createIndexes(db: Database.Database) {
    db.exec('CREATE UNIQUE INDEX world_cms_channel_id ON world_cms(channel_id)');
  },
};

interface PrecheckRow {
  channel_id: string;
  checked_at: number;
  oid: string | null;
  name: string | null;
  type: string | null;
  industry: string | null;
  title: string;
  subscribers: number;
  total_views: number;
  video_count: number;
  language: string;
  category: string;
}

/**
 * Reads networks from the world tables (statements prepared on first use): who manages a channel
 * now (a platform read), and the hosted service's pre-checked index (the index's seed).
 */
export class SampleNetworks implements NetworkReads {
  private statements?: {
    ownerOf: Database.Statement<[string], NetworkOwner>;
    network: Database.Statement<[string], NetworkOwner>;
    prechecked: Database.Statement<[number, number], PrecheckRow & { idx: number }>;
  };

  constructor(
    private readonly db: Database.Database,
    readonly precheckEdition: string,
  ) {}

  private get stmts() {
    this.statements ??= {
      ownerOf: this.db.prepare(
        `SELECT n.oid, n.name, n.type, n.industry FROM world_cms c JOIN world_networks n ON n.oid = c.oid WHERE c.channel_id = ?`,
      ),
      network: this.db.prepare('SELECT oid, name, type, industry FROM world_networks WHERE oid = ?'),
      prechecked: this.db.prepare(
        `SELECT c.idx, c.channel_id, c.prechecked_at AS checked_at, n.oid, n.name, n.type, n.industry,
           ch.title, ch.subscribers, ch.total_views, ch.video_count, ch.language, ch.category
         FROM world_cms c
         JOIN world_channels ch ON ch.idx = c.idx
         LEFT JOIN world_networks n ON n.oid = c.precheck_oid
         WHERE c.prechecked_at IS NOT NULL AND c.idx > ? ORDER BY c.idx LIMIT ?`,
      ),
    };
    return this.statements;
  }

  ownerOf(channelId: string): NetworkOwner | null {
    return this.stmts.ownerOf.get(channelId) ?? null;
  }

  network(oid: string): NetworkOwner | null {
    return this.stmts.network.get(oid) ?? null;
  }

  /** Read in pages, so the caller may write to the database between items. */
  *prechecked(): IterableIterator<PrecheckedVerdict> {
    for (let after = -1; ; ) {
      const rows = this.stmts.prechecked.all(after, PAGE);
      if (rows.length === 0) return;
      after = rows[rows.length - 1]!.idx;
      for (const row of rows) {
        yield {
          channel_id: row.channel_id,
          owner: row.oid ? { oid: row.oid, name: row.name, type: row.type!, industry: row.industry! } : null,
          checked_at: row.checked_at,
          title: row.title,
          subscribers: row.subscribers,
          total_views: row.total_views,
          video_count: row.video_count,
          language: row.language,
          category: row.category,
        };
      }
    }
  }
}
