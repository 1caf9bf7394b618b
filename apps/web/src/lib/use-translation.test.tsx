import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Translator } from './translator.ts';
import { Trans, TranslatorProvider, useTranslation } from './use-translation.tsx';

function Greeting() {
  const { t, i18n } = useTranslation();
  return (
    <p data-testid="greeting" lang={i18n.language}>
      {t('greeting', { name: 'Ana' })}
    </p>
  );
}

describe('useTranslation', () => {
  it('renders the current language and renders again when it switches or gains texts', () => {
    const translator = new Translator('en', { greeting: 'Hello, {{name}}' });
    render(
      <TranslatorProvider translator={translator}>
        <Greeting />
      </TranslatorProvider>,
    );
    expect(screen.getByTestId('greeting')).toHaveTextContent('Hello, Ana');

    act(() => translator.setLanguage('pt-BR', { greeting: 'Olá, {{name}}' }));
    expect(screen.getByTestId('greeting')).toHaveTextContent('Olá, Ana');
    expect(screen.getByTestId('greeting')).toHaveAttribute('lang', 'pt-BR');
  });
});

describe('Trans', () => {
  it('puts the tagged words into the given elements and keeps the rest as plain text', () => {
    const translator = new Translator('en', {
      agreement: 'I accept the <privacy>privacy policy</privacy>, the <offer>offer</offer> and <b>{{what}}</b>.',
    });
    const { container } = render(
      <TranslatorProvider translator={translator}>
        <Trans
          i18nKey="agreement"
          values={{ what: 'more' }}
          components={{ privacy: <a href="/privacy">x</a>, offer: <a href="/contract-offer">x</a> }}
        />
      </TranslatorProvider>,
    );
    expect(container).toHaveTextContent('I accept the privacy policy, the offer and more.');
    expect(screen.getByRole('link', { name: 'privacy policy' })).toHaveAttribute('href', '/privacy');
    expect(screen.getByRole('link', { name: 'offer' })).toHaveAttribute('href', '/contract-offer');
    // A tag with no element given is text, never markup.
    expect(container.querySelector('b')).toBeNull();
  });
});
