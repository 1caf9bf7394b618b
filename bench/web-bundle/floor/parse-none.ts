export interface Product {
  id: number;
  name: string;
}

export function parseProducts(body: unknown): Product[] {
  return (body as { result: { products: Product[] } }).result.products;
}
