import { Diagnostic, linter, lintGutter } from '@codemirror/lint';
import CodeMirror from '@uiw/react-codemirror';
import { useMemo } from 'react';

import type { CompileProblem } from './compile-problems';
import { rego } from './rego-language';

/** The Rego editor: highlighting, and D24's compile errors underlined at their line and column. */
export function RegoEditor({
  value,
  onChange,
  problems,
  label,
}: {
  value: string;
  onChange: (value: string) => void;
  problems: CompileProblem[];
  label: string;
}) {
  const extensions = useMemo(
    () => [
      rego,
      lintGutter(),
      linter(
        (view) =>
          problems.map((problem): Diagnostic => {
            const line = view.state.doc.line(
              Math.min(Math.max(problem.line, 1), view.state.doc.lines),
            );
            const from = Math.min(line.from + Math.max(problem.column - 1, 0), line.to);
            return {
              from,
              to: Math.max(from + 1, line.to),
              severity: 'error',
              message: problem.message,
            };
          }),
        { delay: 0 },
      ),
    ],
    [problems],
  );
  return (
    <CodeMirror
      value={value}
      onChange={onChange}
      extensions={extensions}
      height="320px"
      aria-label={label}
      basicSetup={{ foldGutter: false }}
    />
  );
}
