import '@mantine/core/styles.css';
import '@mantine/charts/styles.css';

import { CSSVariablesResolver, MantineProvider, createTheme } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';

import { router } from './router';

// WCAG 2.1 AA: the primary shade is dark enough for white text (contrast ≥ 4.5:1). WCAG 2.3.3:
// a person who asked their system for reduced motion gets no sliding navigation or fades.
const theme = createTheme({ primaryColor: 'blue', primaryShade: 8, respectReducedMotion: true });
// WCAG 2.1 AA: Mantine's dimmed grey is 3.3:1 on white; gray.7 is above 4.5:1.
const resolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});
const queries = new QueryClient({ defaultOptions: { queries: { retry: 1, staleTime: 10_000 } } });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={resolver}>
      <QueryClientProvider client={queries}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
