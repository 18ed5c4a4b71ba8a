export interface CompileProblem {
  line: number;
  column: number;
  message: string;
}

/** D24's 400 lists each error as `line R, column C: code: message`. */
export function compileProblems(
  errors: Array<{ field: string; message: string }>,
): CompileProblem[] {
  return errors.flatMap((error) => {
    const found = /^line (\d+), column (\d+): (.*)$/s.exec(error.message);
    return found ? [{ line: Number(found[1]), column: Number(found[2]), message: found[3] }] : [];
  });
}
