import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Translator } from '../lib/translator.ts';
import { TranslatorProvider } from '../lib/use-translation.tsx';

export function AppProviders({
  queryClient,
  i18n,
  children,
}: {
  queryClient: QueryClient;
  i18n: Translator;
  children: ReactNode;
}) {
  return (
    <TranslatorProvider translator={i18n}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </TranslatorProvider>
  );
}
