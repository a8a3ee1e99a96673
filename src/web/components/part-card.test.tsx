import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PartCard } from './part-card.tsx';

const KEY = '/uploads/parts/0123456789abcdef0123456789abcdef';
const imgOf = (img: string) => {
  const html = renderToStaticMarkup(
    <PartCard
      part={{ name: 'Disc', img, price: 1200, availablequantity: 5, minimunorder: 1, desription: 'A disc.' }}
    />,
  );
  const tag = /<img[^>]*>/.exec(html)?.[0] ?? '';
  return { srcset: /srcSet="([^"]*)"/i.exec(tag)?.[1], sizes: /sizes="([^"]*)"/.exec(tag)?.[1] };
};

describe('PartCard picture', () => {
  it('offers the 320 px file beside an uploaded 640 px main photo', () => {
    expect(imgOf(`${KEY}-640.webp`).srcset).toBe(`${KEY}-320.webp 320w, ${KEY}-640.webp 640w`);
  });

  it('offers the original width of a photo narrower than 640 px beside its 320 px file', () => {
    const { srcset, sizes } = imgOf(`${KEY}-600.webp`);
    expect(srcset).toBe(`${KEY}-320.webp 320w, ${KEY}-600.webp 600w`);
    expect(sizes).toBeDefined();
  });

  it('has no srcset for a photo stored at one width, a link or a demo picture', () => {
    expect(imgOf(`${KEY}-300.webp`).srcset).toBeUndefined();
    expect(imgOf(`${KEY}-320.webp`).srcset).toBeUndefined();
    expect(imgOf('/images/parts/brake-disc.svg').srcset).toBeUndefined();
    expect(imgOf('https://example.com/a-640.webp').srcset).toBeUndefined();
  });
});
