// A Dockerfile read into stages and instructions: comments dropped, continuation lines joined.

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  /** The image or stage it starts from, as written (`${VAR}` unexpanded). */
  from: string;
  name?: string;
  instructions: Instruction[];
}

export interface Dockerfile {
  /** ARG instructions before the first FROM. */
  globalArgs: Record<string, string | undefined>;
  stages: Stage[];
}

export function parseDockerfile(text: string): Dockerfile {
  const logical: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (!pending && /^\s*#/.test(line)) {
      continue;
    }
    if (pending && /^\s*#/.test(line)) {
      // A comment inside a continued instruction is skipped by Docker too.
      continue;
    }
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    const full = (pending + line.trim()).trim();
    pending = '';
    if (full) {
      logical.push(full);
    }
  }

  const globalArgs: Record<string, string | undefined> = {};
  const stages: Stage[] = [];
  for (const line of logical) {
    const match = /^(\S+)\s*(.*)$/s.exec(line);
    if (!match) {
      continue;
    }
    const keyword = match[1].toUpperCase();
    const args = match[2];
    if (keyword === 'FROM') {
      const from = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      stages.push({ from: from?.[1] ?? args, name: from?.[2], instructions: [] });
    } else if (stages.length === 0 && keyword === 'ARG') {
      const [name, value] = args.split('=', 2);
      globalArgs[name.trim()] = value?.trim();
    } else if (stages.length > 0) {
      stages[stages.length - 1].instructions.push({ keyword, args });
    }
  }
  return { globalArgs, stages };
}

/** Replaces `${NAME}` and `$NAME` with the given values (unknown ones stay as written). */
export function expand(value: string, args: Record<string, string | undefined>): string {
  return value.replace(
    /\$\{(\w+)\}|\$(\w+)/g,
    (whole, braced: string | undefined, bare: string | undefined) => {
      const replacement = args[braced ?? bare ?? ''];
      return replacement ?? whole;
    },
  );
}

/** The stages an image is built from, the final one first, following FROM <stage> links. */
export function stageChain(dockerfile: Dockerfile, finalStage: Stage): Stage[] {
  const chain: Stage[] = [];
  let current: Stage | undefined = finalStage;
  while (current && !chain.includes(current)) {
    chain.push(current);
    const parent: string = current.from;
    current = dockerfile.stages.find((stage) => stage.name === parent);
  }
  return chain;
}

/** The exec-form JSON array of a CMD or ENTRYPOINT, or undefined for the shell form. */
export function execForm(args: string): string[] | undefined {
  try {
    const parsed: unknown = JSON.parse(args);
    return Array.isArray(parsed) && parsed.every((part) => typeof part === 'string')
      ? parsed
      : undefined;
  } catch {
    return undefined;
  }
}
