/** A timestamp as the reader's locale writes it; a dash when there is none. */
export function When({ at }: { at: string | null | undefined }) {
  return <>{at ? new Date(at).toLocaleString() : '—'}</>;
}
