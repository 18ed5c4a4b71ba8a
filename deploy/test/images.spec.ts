// Checks that every image a manifest names is one we build: each service's by docker/Dockerfile,
// safely (non-root, production dependencies only, the service's own entry point and port), and
// the console's static pages by docker/console.Dockerfile (issue 16).
import type { Stage } from './support/dockerfile';
import { execForm, expand, parseDockerfile, stageChain } from './support/dockerfile';
import {
  SERVICE_NAMES,
  SERVICES,
  exists,
  isRecord,
  listYamlFiles,
  readText,
  readYaml,
} from './support/repo';

const dockerfile = parseDockerfile(readText('docker/Dockerfile'));
const finalStage = dockerfile.stages[dockerfile.stages.length - 1];

/** Every `image:` value and kustomize `images[].name` in the YAML under k8s/, deploy/ and docker/. */
function namedImages(): { file: string; image: string }[] {
  const found: { file: string; image: string }[] = [];
  const visit = (file: string, value: unknown, isKustomization: boolean): void => {
    if (Array.isArray(value)) {
      value.forEach((item) => visit(file, item, isKustomization));
    } else if (isRecord(value)) {
      for (const [key, child] of Object.entries(value)) {
        if (key === 'image' && typeof child === 'string') {
          found.push({ file, image: child });
        } else if (key === 'images' && isKustomization && Array.isArray(child)) {
          child
            .filter(isRecord)
            .forEach((entry) => found.push({ file, image: String(entry.name) }));
        } else {
          visit(file, child, isKustomization);
        }
      }
    }
  };
  for (const file of listYamlFiles('k8s', 'deploy', 'docker')) {
    readYaml(file).documents.forEach((document) =>
      visit(file, document.content, /kustomization\.ya?ml$/.test(file)),
    );
  }
  return found;
}

/** The stage that builds the image for one SERVICE value (what `FROM svc-${SERVICE}` picks). */
function serviceStage(service: string): Stage | undefined {
  const name = expand(finalStage?.from ?? '', { ...dockerfile.globalArgs, SERVICE: service });
  return dockerfile.stages.find((stage) => stage.name === name);
}

function instructions(chain: Stage[], keyword: string): string[] {
  return chain.flatMap((stage) =>
    stage.instructions
      .filter((instruction) => instruction.keyword === keyword)
      .map((instruction) => instruction.args),
  );
}

const THIRD_PARTY = /^(postgres|nats):/;
/** Images that are not a Node service: the console's single-page application behind nginx. */
const WEB_IMAGES: Record<string, string> = { console: 'docker/console.Dockerfile' };

describe('images named by the manifests', () => {
  const images = namedImages().filter(({ image }) => !THIRD_PARTY.test(image));
  const named = [
    ...new Set(
      images.map(
        ({ image }) =>
          /^agp\/([a-z0-9-]+)(?::[\w.-]+)?$/.exec(image)?.[1] ?? `not agp/<service>: ${image}`,
      ),
    ),
  ];
  const services = named.filter((name) => !(name in WEB_IMAGES));

  it('should be agp/<service> images for the four services and the console', () => {
    expect(services.sort()).toEqual([...SERVICE_NAMES].sort());
    expect(named.filter((name) => name in WEB_IMAGES).sort()).toEqual(Object.keys(WEB_IMAGES));
  });

  it.each(Object.entries(WEB_IMAGES))(
    '%s should be built by %s, exposing the port its deployment names',
    (name, file) => {
      const web = parseDockerfile(readText(file));
      const chain = stageChain(web, web.stages[web.stages.length - 1]);
      const deployment = readText(`k8s/${name}/deployment.yaml`);
      const port = Number(/containerPort:\s*(\d+)/.exec(deployment)?.[1]);
      expect(instructions(chain, 'EXPOSE').map(Number)).toContain(port);
    },
  );

  it.each(services)('%s should be a workspace app with a build script', (service) => {
    expect(exists(`apps/${service}/package.json`)).toBe(true);
    const manifest = JSON.parse(readText(`apps/${service}/package.json`)) as {
      name?: string;
      scripts?: Record<string, string>;
    };
    expect(manifest.name).toBe(`@agp/${service}`);
    expect(manifest.scripts?.build).toBeDefined();
  });

  it.each(services)(
    '%s should be built by docker/Dockerfile with its entry point and port',
    (service) => {
      const stage = serviceStage(service);
      expect(stage?.name).toBeDefined();
      const chain = stage ? stageChain(dockerfile, stage) : [];
      const commands = instructions(chain, 'CMD');
      expect(execForm(commands[0] ?? '')).toEqual(['node', `apps/${service}/dist/main.js`]);
      expect(instructions(chain, 'EXPOSE').map((port) => Number(port))).toContain(
        SERVICES[service as keyof typeof SERVICES]?.port,
      );
      // The build stage's `case "${SERVICE}" in a|b|c) ;;` guard, if there is one, accepts it.
      const guard = dockerfile.stages
        .flatMap((candidate) => candidate.instructions)
        .map((instruction) => /case "?\$\{?SERVICE\}?"? in\s+([^)]*)\)/.exec(instruction.args)?.[1])
        .find((pattern) => pattern !== undefined);
      expect(
        guard === undefined ||
          guard
            .split('|')
            .map((value) => value.trim())
            .includes(service),
      ).toBe(true);
    },
  );
});

describe('docker/Dockerfile', () => {
  it('should start from node:20-bookworm-slim', () => {
    const bases = dockerfile.stages.map((stage) => expand(stage.from, dockerfile.globalArgs));
    expect(bases).toContain('node:20-bookworm-slim');
    const external = bases.filter(
      (base) => !dockerfile.stages.some((stage) => stage.name === base),
    );
    expect(new Set(external)).toEqual(new Set(['node:20-bookworm-slim']));
  });

  it('should choose the final stage by the SERVICE build argument', () => {
    expect(Object.keys(dockerfile.globalArgs)).toContain('SERVICE');
    expect(finalStage?.from).toMatch(/\$\{?SERVICE\}?/);
  });

  it('should build the service and the libraries it needs with turbo', () => {
    const runs = dockerfile.stages
      .flatMap((stage) => stage.instructions.filter((instruction) => instruction.keyword === 'RUN'))
      .map((instruction) => instruction.args);
    expect(runs.some((run) => /\bnpm ci\b(?!.*--omit=dev)/.test(run))).toBe(true);
    expect(
      runs.some((run) => /turbo run build --filter="?@agp\/\$\{?SERVICE\}?\.\.\./.test(run)),
    ).toBe(true);
  });

  it.each(SERVICE_NAMES)(
    'should run %s as a non-root user with production dependencies only',
    (service) => {
      const stage = serviceStage(service);
      const chain = stage ? stageChain(dockerfile, stage) : [];
      // The chain lists the final stage first, so the first USER found is the one in force.
      const user = instructions(chain, 'USER')[0] ?? 'root';
      expect(['root', '0', '0:0']).not.toContain(user.trim());
      const installs = instructions(chain, 'RUN').filter(
        (run) => /\bnpm (ci|install|i|prune)\b/.test(run) && !/npm install --global/.test(run),
      );
      expect(installs.length).toBeGreaterThan(0);
      expect(installs.filter((run) => !/--omit=dev|--production/.test(run))).toEqual([]);
      expect(instructions(chain, 'ENV').some((env) => /\bNODE_ENV=production\b/.test(env))).toBe(
        true,
      );
    },
  );

  it('should leave node_modules, build output and .env files out of the build context', () => {
    const ignored = readText('docker/Dockerfile.dockerignore')
      .split('\n')
      .map((line) => line.trim());
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', '**/dist', '**/.env']));
  });
});

describe('docker/docker-compose.yml', () => {
  const [compose] = readYaml('docker/docker-compose.yml').documents;
  const services = (
    isRecord(compose?.content) && isRecord(compose.content.services) ? compose.content.services : {}
  ) as Record<
    string,
    {
      image?: string;
      command?: string[];
      depends_on?: Record<string, { condition?: string }>;
      build?: { dockerfile?: string; args?: Record<string, string> };
      environment?: Record<string, string>;
    }
  >;

  it('should run PostgreSQL 15 and NATS 2 with JetStream', () => {
    expect(services.postgres?.image).toBe('postgres:15');
    expect(services.nats?.image).toBe('nats:2');
    expect(services.nats?.command).toContain('-js');
  });

  it.each(SERVICE_NAMES)(
    'should build and run %s from docker/Dockerfile on its port',
    (service) => {
      const entry = services[service];
      expect(entry?.build?.dockerfile).toBe('docker/Dockerfile');
      expect(entry?.build?.args?.SERVICE).toBe(service);
      expect(entry?.environment?.PORT).toBe(String(SERVICES[service].port));
    },
  );

  it.each(SERVICE_NAMES.filter((service) => SERVICES[service].ownsSchema))(
    'should migrate %s before starting it',
    (service) => {
      const [name, migrate] =
        Object.entries(services).find(([, entry]) =>
          entry.command?.includes(`apps/${service}/dist/migrate.js`),
        ) ?? [];
      expect(migrate?.image).toBe(services[service]?.image);
      expect(services[service]?.depends_on?.[name ?? '']?.condition).toBe(
        'service_completed_successfully',
      );
    },
  );
});
