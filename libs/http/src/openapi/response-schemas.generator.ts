import { dirname, join, relative, resolve } from 'node:path';

import * as ts from 'typescript';

import type { ResponseSchemas } from './response-schemas';
import { JsonSchema, TypeSchemas } from './type-schemas';

const HTTP_DECORATORS = new Set(['Get', 'Post', 'Put', 'Patch', 'Delete', 'All']);
const VIRTUAL_FILE = '__openapi_response_types__.ts';

/** Where an application keeps its generated answer schemas, from its folder. */
export const RESPONSE_SCHEMAS_FILE = 'src/openapi/response-schemas.json';

interface Handler {
  operationId: string;
  answer: string;
}

/** The JSON Schemas of every handler's answer in one application (F24). */
export function generateResponseSchemas(tsconfigPath: string): ResponseSchemas {
  const config = ts.getParsedCommandLineOfConfigFile(
    resolve(tsconfigPath),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) {
    throw new Error(`cannot read ${tsconfigPath}`);
  }
  const sourceRoot = join(dirname(resolve(tsconfigPath)), 'src');
  const controllerFiles = config.fileNames.filter(
    (file) => file.startsWith(sourceRoot) && file.endsWith('.controller.ts'),
  );
  const scan = ts.createProgram(controllerFiles, config.options);
  const imports: string[] = [];
  const handlers: Handler[] = [];
  for (const file of controllerFiles) {
    const source = scan.getSourceFile(file);
    if (source) {
      collectHandlers(source, sourceRoot, scan.getTypeChecker(), imports, handlers);
    }
  }
  const virtualPath = join(sourceRoot, VIRTUAL_FILE);
  const virtualSource = [
    ...imports,
    ...handlers.map((h) => `export type ${h.operationId} = Awaited<${h.answer}>;`),
  ].join('\n');
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    resolve(name) === virtualPath
      ? ts.createSourceFile(name, virtualSource, language)
      : getSourceFile(name, language, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => resolve(name) === virtualPath || fileExists(name);
  const program = ts.createProgram([...controllerFiles, virtualPath], config.options, host);
  const checker = program.getTypeChecker();
  const virtual = program.getSourceFile(virtualPath)!;
  const types = new TypeSchemas(checker, virtual.fileName);
  const operations: Record<string, JsonSchema> = {};
  for (const statement of virtual.statements) {
    if (ts.isTypeAliasDeclaration(statement)) {
      const answer = checker.getTypeAtLocation(statement.name);
      if (!isEmptyAnswer(answer)) {
        operations[statement.name.text] = types.schemaOf(answer);
      }
    }
  }
  return { operations: sortKeys(operations), schemas: sortKeys(types.named) };
}

/** `void`, `undefined` or `never`: a handler that answers no body. */
function isEmptyAnswer(type: ts.Type): boolean {
  return (type.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Never)) !== 0;
}

function collectHandlers(
  source: ts.SourceFile,
  sourceRoot: string,
  checker: ts.TypeChecker,
  imports: string[],
  handlers: Handler[],
): void {
  const module = `./${relative(sourceRoot, source.fileName).replace(/\.ts$/, '')}`;
  for (const statement of source.statements) {
    if (
      ts.isClassDeclaration(statement) &&
      statement.name &&
      decoratorNamed(statement, 'Controller')
    ) {
      const alias = `C${imports.length}`;
      imports.push(`import { ${statement.name.text} as ${alias} } from '${module}';`);
      for (const member of statement.members) {
        if (
          ts.isMethodDeclaration(member) &&
          ts.isIdentifier(member.name) &&
          [...HTTP_DECORATORS].some((name) => decoratorNamed(member, name)) &&
          !writesOwnReply(member)
        ) {
          handlers.push({
            operationId: `${statement.name.text}_${member.name.text}`,
            answer: `ReturnType<${alias}['${member.name.text}']>`,
          });
        }
      }
    }
    // A controller a factory makes: `export const ChannelsController = catalogController({...})`
    // (F21), `export const AgentsController = clientsController('AGENT', {...})`.
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const call = declaration.initializer;
        if (
          ts.isIdentifier(declaration.name) &&
          declaration.name.text.endsWith('Controller') &&
          call &&
          ts.isCallExpression(call) &&
          ts.isIdentifier(call.expression)
        ) {
          const alias = `C${imports.length}`;
          imports.push(`import { ${declaration.name.text} as ${alias} } from '${module}';`);
          const routes =
            call.expression.text === 'catalogController'
              ? catalogRoutes(call)
              : factoryRoutes(checker, declaration.name);
          for (const route of routes) {
            handlers.push({
              operationId: `${declaration.name.text}_${route}`,
              answer: `ReturnType<InstanceType<typeof ${alias}>['${route}']>`,
            });
          }
        }
      }
    }
  }
}

function factoryRoutes(checker: ts.TypeChecker, name: ts.Identifier): string[] {
  const instances = checker
    .getTypeAtLocation(name)
    .getConstructSignatures()
    .map((signature) => signature.getReturnType());
  const routes = instances.flatMap((instance) =>
    checker
      .getPropertiesOfType(instance)
      .filter((p) => checker.getTypeOfSymbol(p).getCallSignatures().length > 0)
      .map((p) => p.name),
  );
  if (routes.length === 0) {
    throw new Error(
      `${name.text} (${name.getSourceFile().fileName}) is made by a factory whose return type ` +
        'names no routes: declare it as Type<Routes>, Routes an interface of its handlers',
    );
  }
  return [...new Set(routes)];
}

const CATALOG_ROUTES = ['create', 'list', 'get', 'update', 'remove'];

function catalogRoutes(call: ts.CallExpression): string[] {
  const options = call.arguments[0];
  if (!options || !ts.isObjectLiteralExpression(options)) {
    return CATALOG_ROUTES;
  }
  const routes = options.properties.find(
    (p) => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === 'routes',
  );
  const hasCreate = options.properties.some(
    (p) => p.name && ts.isIdentifier(p.name) && p.name.text === 'createDto',
  );
  const listed =
    routes && ts.isPropertyAssignment(routes) && ts.isArrayLiteralExpression(routes.initializer)
      ? routes.initializer.elements.filter(ts.isStringLiteral).map((e) => e.text)
      : CATALOG_ROUTES;
  return listed.filter((route) => route !== 'create' || hasCreate);
}

function decoratorNamed(node: ts.HasDecorators, name: string): boolean {
  return (ts.getDecorators(node) ?? []).some((decorator) => {
    const expression = decorator.expression;
    const callee = ts.isCallExpression(expression) ? expression.expression : expression;
    return ts.isIdentifier(callee) && callee.text === name;
  });
}

function writesOwnReply(method: ts.MethodDeclaration): boolean {
  return method.parameters.some((parameter) =>
    (ts.getDecorators(parameter) ?? []).some((decorator) => {
      const expression = decorator.expression;
      return (
        ts.isCallExpression(expression) &&
        ts.isIdentifier(expression.expression) &&
        expression.expression.text === 'Res' &&
        !expression.arguments.some(
          (argument) =>
            ts.isObjectLiteralExpression(argument) &&
            argument.properties.some(
              (p) =>
                p.name !== undefined && ts.isIdentifier(p.name) && p.name.text === 'passthrough',
            ),
        )
      );
    }),
  );
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
