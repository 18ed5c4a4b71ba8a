import { randomUUID } from 'node:crypto';

/**
 * A generated catalogue of A2A agent cards for discovery's quality test and benchmark (issue 40):
 * agents of twenty business areas, each doing one thing to one kind of object for one kind of
 * customer, worded in varied templates with synonyms, with generic side skills as noise, and a
 * query set written the way a caller asks (other words, other order, filler), each naming the
 * one agent it should find. Seeded, so every run sees the same catalogue.
 */

interface Area {
  tag: string;
  /** The verb of the skill, then synonyms a card or a caller may use instead. */
  verbs: string[];
  /** What the agent works on; each is its own and no other area's. */
  objects: string[];
  role: string;
  modes: { input: string[]; output: string[] };
}

const AREAS: Area[] = [
  {
    tag: 'translation',
    verbs: ['translate', 'localise', 'render'],
    objects: ['contracts', 'product manuals', 'subtitles', 'patents', 'marketing copy', 'menus'],
    role: 'Translator',
    modes: { input: ['text/plain', 'text/markdown'], output: ['text/plain'] },
  },
  {
    tag: 'finance',
    verbs: ['reconcile', 'match', 'balance'],
    objects: [
      'invoices',
      'bank statements',
      'expense reports',
      'ledgers',
      'payroll runs',
      'vat returns',
    ],
    role: 'Reconciler',
    modes: { input: ['application/json', 'text/csv'], output: ['application/json'] },
  },
  {
    tag: 'support',
    verbs: ['triage', 'prioritise', 'route'],
    objects: [
      'support tickets',
      'complaints',
      'refund requests',
      'warranty claims',
      'chat transcripts',
      'bug reports',
    ],
    role: 'Triage',
    modes: { input: ['text/plain'], output: ['application/json'] },
  },
  {
    tag: 'legal',
    verbs: ['review', 'audit', 'check'],
    objects: [
      'leases',
      'nda agreements',
      'privacy policies',
      'employment contracts',
      'licence terms',
      'court filings',
    ],
    role: 'Counsel',
    modes: { input: ['application/pdf', 'text/plain'], output: ['text/markdown'] },
  },
  {
    tag: 'weather',
    verbs: ['forecast', 'predict', 'estimate'],
    objects: ['rainfall', 'wind speed', 'snow cover', 'heat waves', 'frost nights', 'storm tracks'],
    role: 'Forecaster',
    modes: { input: ['application/json'], output: ['application/json', 'image/png'] },
  },
  {
    tag: 'logistics',
    verbs: ['schedule', 'plan', 'optimise'],
    objects: [
      'truck routes',
      'warehouse picking',
      'container loads',
      'parcel deliveries',
      'cold chain shipments',
      'returns pickups',
    ],
    role: 'Planner',
    modes: { input: ['application/json'], output: ['application/json'] },
  },
  {
    tag: 'security',
    verbs: ['scan', 'inspect', 'probe'],
    objects: [
      'docker images',
      'open ports',
      'tls certificates',
      'npm dependencies',
      'iam policies',
      'firewall rules',
    ],
    role: 'Scanner',
    modes: { input: ['application/json'], output: ['application/json', 'text/markdown'] },
  },
  {
    tag: 'hr',
    verbs: ['screen', 'shortlist', 'assess'],
    objects: [
      'resumes',
      'cover letters',
      'interview notes',
      'reference checks',
      'skills tests',
      'internship applications',
    ],
    role: 'Recruiter',
    modes: { input: ['application/pdf', 'text/plain'], output: ['application/json'] },
  },
  {
    tag: 'marketing',
    verbs: ['write', 'draft', 'compose'],
    objects: [
      'newsletters',
      'ad headlines',
      'landing pages',
      'social posts',
      'press releases',
      'product descriptions',
    ],
    role: 'Copywriter',
    modes: { input: ['text/plain'], output: ['text/markdown', 'text/html'] },
  },
  {
    tag: 'data',
    verbs: ['clean', 'deduplicate', 'normalise'],
    objects: [
      'customer records',
      'address lists',
      'sensor readings',
      'survey answers',
      'product catalogues',
      'crm contacts',
    ],
    role: 'Cleaner',
    modes: { input: ['text/csv', 'application/json'], output: ['text/csv'] },
  },
  {
    tag: 'health',
    verbs: ['summarise', 'abstract', 'condense'],
    objects: [
      'discharge letters',
      'lab results',
      'radiology reports',
      'clinical trials',
      'medication histories',
      'nursing notes',
    ],
    role: 'Scribe',
    modes: { input: ['text/plain', 'application/fhir+json'], output: ['text/plain'] },
  },
  {
    tag: 'travel',
    verbs: ['book', 'reserve', 'arrange'],
    objects: [
      'flights',
      'hotel rooms',
      'rental cars',
      'train tickets',
      'conference venues',
      'airport transfers',
    ],
    role: 'Concierge',
    modes: { input: ['text/plain'], output: ['application/json'] },
  },
  {
    tag: 'devops',
    verbs: ['deploy', 'roll out', 'release'],
    objects: [
      'kubernetes services',
      'lambda functions',
      'database migrations',
      'static websites',
      'feature flags',
      'helm charts',
    ],
    role: 'Operator',
    modes: { input: ['application/json', 'application/yaml'], output: ['application/json'] },
  },
  {
    tag: 'sales',
    verbs: ['qualify', 'score', 'rank'],
    objects: [
      'inbound leads',
      'trade show contacts',
      'renewal accounts',
      'webinar signups',
      'partner referrals',
      'cold prospects',
    ],
    role: 'Scout',
    modes: { input: ['application/json'], output: ['application/json'] },
  },
  {
    tag: 'education',
    verbs: ['grade', 'mark', 'evaluate'],
    objects: [
      'essays',
      'math homework',
      'quiz answers',
      'lab reports',
      'coding assignments',
      'language exercises',
    ],
    role: 'Tutor',
    modes: { input: ['text/plain', 'image/png'], output: ['text/markdown'] },
  },
  {
    tag: 'procurement',
    verbs: ['compare', 'benchmark', 'evaluate'],
    objects: [
      'supplier quotes',
      'tender bids',
      'purchase orders',
      'framework agreements',
      'catalogue prices',
      'freight offers',
    ],
    role: 'Buyer',
    modes: { input: ['application/json', 'text/csv'], output: ['application/json'] },
  },
  {
    tag: 'media',
    verbs: ['transcribe', 'caption', 'annotate'],
    objects: [
      'podcasts',
      'board meetings',
      'webinars',
      'voicemails',
      'youtube videos',
      'phone interviews',
    ],
    role: 'Transcriber',
    modes: { input: ['audio/mpeg', 'video/mp4'], output: ['text/plain', 'text/vtt'] },
  },
  {
    tag: 'realestate',
    verbs: ['appraise', 'value', 'price'],
    objects: [
      'apartments',
      'office buildings',
      'farmland',
      'retail units',
      'parking spaces',
      'holiday homes',
    ],
    role: 'Appraiser',
    modes: { input: ['application/json', 'image/jpeg'], output: ['application/json'] },
  },
  {
    tag: 'compliance',
    verbs: ['monitor', 'watch', 'track'],
    objects: [
      'sanctions lists',
      'aml alerts',
      'insider trades',
      'gdpr requests',
      'esg disclosures',
      'kyc documents',
    ],
    role: 'Sentinel',
    modes: { input: ['application/json'], output: ['application/json'] },
  },
  {
    tag: 'engineering',
    verbs: ['simulate', 'model', 'test'],
    objects: [
      'bridge loads',
      'battery packs',
      'airflow',
      'circuit boards',
      'gearboxes',
      'solar panels',
    ],
    role: 'Simulator',
    modes: { input: ['application/json'], output: ['application/json', 'image/png'] },
  },
];

/** For whom: the customer kind that makes one agent of an area differ from the next. */
const MARKETS = [
  'hospitals',
  'banks',
  'insurers',
  'airlines',
  'retailers',
  'universities',
  'municipalities',
  'law firms',
  'startups',
  'manufacturers',
  'pharmacies',
  'shipping lines',
  'hotels',
  'farms',
  'utilities',
  'charities',
  'casinos',
  'breweries',
  'dentists',
  'architects',
  'museums',
  'telecoms',
  'carmakers',
  'publishers',
  'restaurants',
];

const BRANDS = [
  'Acme',
  'Northwind',
  'Contoso',
  'Globex',
  'Initech',
  'Umbrella',
  'Stark',
  'Wayne',
  'Tyrell',
  'Cyberdyne',
  'Hooli',
  'Vandelay',
  'Soylent',
  'Wonka',
  'Aperture',
  'Gringotts',
  'Oscorp',
  'Massive',
  'Pied Piper',
  'Blue Sun',
];

/** Side skills many agents have, so no agent is found by a word only it uses. */
const SIDE_SKILLS = [
  {
    id: 'summarize',
    name: 'Summarization',
    description: 'Summarise long text into key points',
    tags: ['text'],
  },
  {
    id: 'draft-email',
    name: 'Email drafting',
    description: 'Draft a reply email to a customer',
    tags: ['email'],
  },
  {
    id: 'export-report',
    name: 'Report export',
    description: 'Export results as a PDF report',
    tags: ['reporting'],
  },
  {
    id: 'status',
    name: 'Status check',
    description: 'Answer whether a job is still running',
    tags: ['ops'],
  },
];

const DESCRIPTIONS = [
  (v: string, o: string, m: string): string => `${cap(v)}s ${o} for ${m}.`,
  (v: string, o: string, m: string): string => `Helps ${m} ${v} their ${o} quickly and accurately.`,
  (v: string, o: string, m: string): string => `An assistant that can ${v} ${o}, built for ${m}.`,
  (v: string, o: string, m: string): string => `Specialist agent: ${o} for ${m}, ready to ${v}.`,
];

/** How callers ask: other verbs than the card's, other order, filler words. */
const QUERIES = [
  (v: string, o: string, m: string): string => `${v} ${o} for ${m}`,
  (v: string, o: string, m: string): string =>
    `I need an agent that can ${v} our ${o}; we are ${m}`,
  (v: string, o: string, m: string): string => `${m}: ${o} ${v}`,
  (v: string, o: string, m: string): string => `who can ${v} ${o} at ${m}?`,
  (v: string, o: string, m: string): string => `${o} ${m}`,
];

export interface CatalogueAgent {
  id: string;
  name: string;
  description: string;
  card: Record<string, unknown>;
}

export interface CatalogueQuery {
  q: string;
  expected: string;
  tag?: string;
}

export interface Catalogue {
  agents: CatalogueAgent[];
  queries: CatalogueQuery[];
}

/** `size` agents (up to 3,000 with each area, object and market once together), `queries` queries. */
export function generateCatalogue(size: number, queries: number, seed = 40): Catalogue {
  const random = mulberry32(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const triples = AREAS.flatMap((area) =>
    area.objects.flatMap((object) => MARKETS.map((market) => ({ area, object, market }))),
  );
  shuffle(triples, random);
  // Past the distinct triples (3,000) they come round again under other brands: the benchmark's.
  const chosen = Array.from({ length: size }, (_v, i) => triples[i % triples.length]!);
  const agents = chosen.map(({ area, object, market }, index) => {
    const verb = pick(area.verbs);
    const description = pick(DESCRIPTIONS)(verb, object, market);
    const name = `${BRANDS[index % BRANDS.length]} ${titleOf(object)} ${area.role}`;
    const side = SIDE_SKILLS.filter(() => random() < 0.35);
    const card = {
      name,
      description,
      url: 'https://agents.example/a2a',
      version: '1.0.0',
      protocolVersion: '0.3.0',
      capabilities: { streaming: random() < 0.5, pushNotifications: random() < 0.3 },
      defaultInputModes: area.modes.input,
      defaultOutputModes: area.modes.output,
      skills: [
        {
          id: `${slug(verb)}-${slug(object)}`,
          name: `${titleOf(object)} ${area.role.toLowerCase()}`,
          description: `${cap(verb)} ${object} for ${market}`,
          tags: [area.tag, slug(market), slug(object)],
          examples: [`${verb} these ${object}`, `can you ${pick(area.verbs)} the ${object}?`],
        },
        ...side,
      ],
    };
    return { id: randomUUID(), name, description, card, area, object, market };
  });
  const distinct = agents.slice(0, triples.length);
  const asked = distinct.filter(
    (_a, i) => i % Math.max(1, Math.floor(distinct.length / queries)) === 0,
  );
  return {
    agents: agents.map(({ id, name, description, card }) => ({ id, name, description, card })),
    queries: asked.slice(0, queries).map((agent, i) => {
      const verb = agent.area.verbs[(i % (agent.area.verbs.length - 1)) + 1]!;
      return {
        q: QUERIES[i % QUERIES.length]!(verb, agent.object, agent.market),
        expected: agent.id,
        ...(i % 7 === 0 ? { tag: agent.area.tag } : {}),
      };
    }),
  };
}

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(list: T[], random: () => number): void {
  for (let i = list.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
}

function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function titleOf(text: string): string {
  return text.split(' ').map(cap).join(' ');
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}
