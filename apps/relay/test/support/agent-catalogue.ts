import { randomUUID } from 'node:crypto';

import { AREAS, BRANDS, MARKETS, SIDE_SKILLS } from './agent-catalogue.data';

/**
 * A generated catalogue of A2A agent cards for discovery's quality test and benchmark (issue 40):
 * agents of twenty business areas, each doing one thing to one kind of object for one kind of
 * customer, worded in varied templates with synonyms, with generic side skills as noise, and a
 * query set written the way a caller asks (other words, other order, filler), each naming the
 * one agent it should find. Seeded, so every run sees the same catalogue.
 */

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
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const triples = AREAS.flatMap((area) =>
    area.objects.flatMap((object) => MARKETS.map((market) => ({ area, object, market }))),
  );
  shuffle(triples, random);
  // Past the distinct triples (3,000) they come round again under other brands: the benchmark's.
  const chosen = Array.from({ length: size }, (_v, i) => triples[i % triples.length]);
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
      const verb = agent.area.verbs[(i % (agent.area.verbs.length - 1)) + 1];
      return {
        q: QUERIES[i % QUERIES.length](verb, agent.object, agent.market),
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
    [list[i], list[j]] = [list[j], list[i]];
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
