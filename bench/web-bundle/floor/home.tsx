import { useQuery } from '@tanstack/react-query';
// Resolved by the benchmark to no parsing, zod or zod/mini, to price each in the same run.
import { parseProducts } from 'floor-parse';
import { NavLink } from 'react-router-dom';

function Home() {
  const { data } = useQuery({
    queryKey: ['popular'],
    queryFn: async () => parseProducts(await (await fetch('/api/popular-products')).json()),
  });
  return (
    <main>
      <NavLink to="/">Popular</NavLink>
      <ul>
        {data?.map((product) => (
          <li key={product.id}>{product.name}</li>
        ))}
      </ul>
    </main>
  );
}

export const Component = Home;
