import { Box, Code, Text } from '@mantine/core';
import { diffLines } from 'diff';

/** Two versions' Rego, line by line: removed lines marked −, added +, each also by colour. */
export function VersionDiff({ before, after }: { before: string; after: string }) {
  const parts = diffLines(before, after);
  if (parts.every((part) => !part.added && !part.removed)) {
    return <Text c="dimmed">The two versions are the same.</Text>;
  }
  return (
    <Code block>
      {parts.flatMap((part, index) =>
        part.value
          .replace(/\n$/, '')
          .split('\n')
          .map((line, lineIndex) => (
            <Box
              key={`${index}-${lineIndex}`}
              component="span"
              display="block"
              bg={part.added ? 'green.1' : part.removed ? 'red.1' : undefined}
            >
              {part.added ? '+ ' : part.removed ? '− ' : '  '}
              {line}
            </Box>
          )),
      )}
    </Code>
  );
}
