import { Alert, Button, Center, Loader, Stack } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';

import { completeSignIn, signIn } from '../auth/session';

/** Back from tenant-auth's sign-in: the code becomes tokens (in memory), then the page asked for. */
export function CallbackPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string>();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) {
      return;
    }
    started.current = true;
    completeSignIn(new URL(window.location.href))
      .then((returnTo) => navigate(returnTo, { replace: true }))
      .catch((reason: unknown) =>
        setError(reason instanceof Error ? reason.message : String(reason)),
      );
  }, [navigate]);

  return (
    <Center mih="100vh">
      {error ? (
        <Stack maw={420}>
          <Alert color="red" title="Sign-in failed" role="alert">
            {error}
          </Alert>
          <Button onClick={() => void signIn('/')}>Sign in again</Button>
        </Stack>
      ) : (
        <Loader aria-label="Signing in" />
      )}
    </Center>
  );
}
