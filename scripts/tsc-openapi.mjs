#!/usr/bin/env node
// `tsc -p <tsconfig>` with the @nestjs/swagger compiler plugin (issue 18): DTO property types,
// optionality and class-validator constraints, and controller return types, read from the
// TypeScript source once at build time, so the OpenAPI document has one source of truth (the code).
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const require = createRequire(resolve(process.cwd(), 'package.json'));
const ts = require('typescript');
const swaggerPlugin = require('@nestjs/swagger/plugin');

const configPath = resolve(process.argv[2] ?? 'tsconfig.build.json');
const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: report };
const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, host);
const program = ts.createProgram({
  rootNames: config.fileNames,
  options: config.options,
  projectReferences: config.projectReferences,
});
const pluginOptions = {
  introspectComments: true,
  classValidatorShim: true,
  dtoFileNameSuffix: ['.dto.ts', '.response.ts', '-responses.ts', '.entity.ts'],
  controllerFileNameSuffix: ['.controller.ts'],
};
const emitted = program.emit(undefined, undefined, undefined, false, {
  before: [swaggerPlugin.before(pluginOptions, program)],
  afterDeclarations: [swaggerPlugin.afterDeclarations?.(pluginOptions, program)].filter(Boolean),
});
const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
diagnostics.forEach(report);
process.exit(diagnostics.some((d) => d.category === ts.DiagnosticCategory.Error) ? 1 : 0);

function report(diagnostic) {
  process.stderr.write(
    ts.formatDiagnosticsWithColorAndContext([diagnostic], {
      getCanonicalFileName: (name) => name,
      getCurrentDirectory: () => process.cwd(),
      getNewLine: () => '\n',
    }),
  );
}
