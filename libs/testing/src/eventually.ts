/** For asynchronous effects such as an event arriving; it asserts an outcome, never a duration. */
export async function eventually<T>(
  check: () => Promise<T> | T,
  attempts = 200,
  intervalMs = 50,
): Promise<T> {
  let lastError: unknown;
  for (let i = 0; i < attempts; i += 1) {
    try {
      return await check();
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
  throw lastError;
}
