import { UseMutationResult, useMutation, useQueryClient } from '@tanstack/react-query';

/** A change through the API that refreshes the lists it touched once it succeeds. */
export function useAction<Input, Output>(
  action: (input: Input) => Promise<Output>,
  refreshes: string[],
): UseMutationResult<Output, Error, Input> {
  const client = useQueryClient();
  return useMutation({
    mutationFn: action,
    onSuccess: () => client.invalidateQueries({ queryKey: refreshes }),
  });
}
