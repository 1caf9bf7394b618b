import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type Catalogue, Translator } from '../../../lib/translator.ts';
import { TranslatorProvider } from '../../../lib/use-translation.tsx';
import en from '../../../locales/en.json';
import hi from '../../../locales/hi.json';
import ptBR from '../../../locales/pt-BR.json';
import ru from '../../../locales/ru.json';
import { ProductRating } from './product-rating.tsx';

const CATALOGUES: Record<string, Catalogue> = { en, 'pt-BR': ptBR, ru, hi };

function renderIn(language: string, rating: { average: number | null; count: number }) {
  return render(
    <TranslatorProvider translator={new Translator(language, CATALOGUES[language] as Catalogue)}>
      <ProductRating rating={rating} />
    </TranslatorProvider>,
  );
}

describe('ProductRating', () => {
  it.each([
    ['en', 'Rated 4.6 out of 5, 23 reviews', '4.6(23)'],
    ['pt-BR', 'Nota 4,6 de 5, 23 avaliações', '4,6(23)'],
    ['ru', 'Оценка 4,6 из 5, 23 отзыва', '4,6(23)'],
    ['hi', '5 में से 4.6 रेटिंग, 23 समीक्षाएँ', '4.6(23)'],
  ])('in %s is read out as "%s" and shows a star, the average and the count', (language, name, shown) => {
    const { container } = renderIn(language, { average: 4.6, count: 23 });
    const rating = screen.getByRole('img', { name });
    expect(rating).toHaveTextContent(shown, { normalizeWhitespace: true });
    expect(container.querySelector('svg')).toHaveAttribute('fill', 'currentColor');
  });

  it('keeps one decimal, groups thousands with a space and says "review" for one', () => {
    renderIn('en', { average: 5, count: 1 });
    expect(screen.getByRole('img', { name: 'Rated 5.0 out of 5, 1 review' })).toHaveTextContent('5.0(1)');
    renderIn('en', { average: 4.2, count: 12_345 });
    expect(screen.getByRole('img', { name: 'Rated 4.2 out of 5, 12\u00a0345 reviews' })).toBeInTheDocument();
  });

  it('shows nothing for a product nobody has reviewed', () => {
    const { container } = renderIn('en', { average: null, count: 0 });
    expect(container).toBeEmptyDOMElement();
  });
});
