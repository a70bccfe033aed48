// What the shop shows about each product. The proxy's catalog.json stays in the proxy's own format
// (docs/proxy.md, "Catalog"), so names, prices and colours live here instead; each colour is a variant the
// shopper can choose, with its own drawn picture, and catalog.json lists the same variants.

export type GarmentDrawing =
  | { kind: 'saree'; drape: 'nivi' | 'bengali' | 'gujarati' | 'maharashtrian' }
  | { kind: 'lehenga' }
  | { kind: 'dress' }
  | { kind: 'sherwani' }
  | { kind: 'bandhgala' }
  | { kind: 'suit' }
  // Pieces that complete a look, worn over another garment.
  | { kind: 'dupatta' }
  | { kind: 'stole' }
  | { kind: 'jacket' };

export interface Palette {
  /** main cloth */
  base: string;
  /** borders, zari, buttons */
  trim: string;
  /** blouse, lining, shirt or dupatta */
  second: string;
}

/** A colour the product is sold in: a variant with its own id (as a shop platform would give it). */
export interface Colour {
  /** the variant id, sent as `<tryon-button variant>` and listed in catalog.json */
  id: string;
  name: string;
  /** the swatch */
  hex: string;
  /** how this colour's garment is drawn */
  palette: Palette;
}

export interface Product {
  id: string;
  name: string;
  /** price in rupees */
  price: number;
  description: string;
  /** one line under the name, e.g. the drape style */
  style: string;
  /** the first is the product's own colour, shown and tried on until the shopper picks another */
  colours: [Colour, ...Colour[]];
  drawing: GarmentDrawing;
  /** shop image path under /images/ of the first colour (the garment, or the model wearing it) */
  image: string;
  /** what the try-on offers, shown as small badges on the shop */
  offers: string[];
  /** the product page that shows theming and listens to the widget's events */
  showcase?: { accent: string; label: string };
}

export const products: Product[] = [
  {
    id: 'saree-nivi-ruby',
    name: 'Ruby Banarasi Silk Saree',
    price: 12400,
    style: 'Nivi drape',
    description:
      'Handwoven Banarasi silk in deep ruby with a gold zari border and a paisley pallu. Draped in the nivi style: pleats at the front, the pallu over the left shoulder.',
    colours: [
      { id: 'ruby', name: 'Ruby', hex: '#9b1b30', palette: { base: '#9b1b30', trim: '#d4a437', second: '#6d1022' } },
      {
        id: 'zari-gold',
        name: 'Zari gold',
        hex: '#d4a437',
        palette: { base: '#d4a437', trim: '#9b1b30', second: '#a8802a' },
      },
    ],
    drawing: { kind: 'saree', drape: 'nivi' },
    image: 'garments/saree-nivi-ruby.png',
    offers: ['Try-on'],
  },
  {
    id: 'saree-bengali-haveli',
    name: 'Garad Silk Saree, Bengali Drape',
    price: 18900,
    style: 'Bengali drape · 4-view catalog',
    description:
      'Ivory garad silk with a red border, worn the Bengali way: two broad pleats and the pallu brought over the shoulder to the front. See it from four angles against a warm haveli courtyard, rendered at premium quality.',
    colours: [
      { id: 'ivory', name: 'Ivory', hex: '#f4ecd8', palette: { base: '#f4ecd8', trim: '#c0392b', second: '#b03024' } },
      {
        id: 'sindoor-red',
        name: 'Sindoor red',
        hex: '#c0392b',
        palette: { base: '#c0392b', trim: '#f4ecd8', second: '#8e2a20' },
      },
    ],
    drawing: { kind: 'saree', drape: 'bengali' },
    image: 'garments/saree-bengali-haveli.png',
    offers: ['Try-on', '4 views', 'Premium'],
  },
  {
    id: 'saree-gujarati-marigold',
    name: 'Marigold Bandhani Saree',
    price: 9800,
    style: 'Gujarati drape (seedha pallu)',
    description:
      'Tie-dyed bandhani in marigold and leaf green. The seedha pallu comes over the right shoulder and falls open across the front, showing off the dots.',
    colours: [
      {
        id: 'marigold',
        name: 'Marigold',
        hex: '#f2a900',
        palette: { base: '#f2a900', trim: '#2e7d32', second: '#c62828' },
      },
      {
        id: 'leaf-green',
        name: 'Leaf green',
        hex: '#2e7d32',
        palette: { base: '#2e7d32', trim: '#f2a900', second: '#c62828' },
      },
    ],
    drawing: { kind: 'saree', drape: 'gujarati' },
    image: 'garments/saree-gujarati-marigold.png',
    offers: ['Try-on'],
  },
  {
    id: 'saree-maharashtrian-paithani',
    name: 'Peacock Paithani Nauvari',
    price: 21500,
    style: 'Maharashtrian drape (9-yard kashta)',
    description:
      'A nine-yard Paithani in peacock green with a magenta border, tucked at the back in the kashta style for free movement.',
    colours: [
      {
        id: 'peacock-green',
        name: 'Peacock green',
        hex: '#0f6e5f',
        palette: { base: '#0f6e5f', trim: '#b0246a', second: '#7a1749' },
      },
      {
        id: 'magenta',
        name: 'Magenta',
        hex: '#b0246a',
        palette: { base: '#b0246a', trim: '#0f6e5f', second: '#0b5046' },
      },
    ],
    drawing: { kind: 'saree', drape: 'maharashtrian' },
    image: 'garments/saree-maharashtrian-paithani.png',
    offers: ['Try-on'],
  },
  {
    id: 'lehenga-emerald',
    name: 'Emerald Bridal Lehenga',
    price: 46000,
    style: 'Shown on our model',
    description:
      'An emerald silk lehenga with tiers of gold embroidery and a sheer dupatta. The try-on takes the outfit from our model photo and puts it on you; your face stays yours.',
    colours: [
      {
        id: 'emerald',
        name: 'Emerald',
        hex: '#0b6b3a',
        palette: { base: '#0b6b3a', trim: '#c9a227', second: '#e8b4c8' },
      },
      {
        id: 'antique-gold',
        name: 'Antique gold',
        hex: '#c9a227',
        palette: { base: '#c9a227', trim: '#0b6b3a', second: '#e8b4c8' },
      },
    ],
    drawing: { kind: 'lehenga' },
    image: 'models/lehenga-emerald.jpg',
    offers: ['Try-on', 'From a model photo'],
  },
  {
    id: 'dress-aline-indigo',
    name: 'Indigo Block-Print A-line Dress',
    price: 3200,
    style: 'A-line · cotton',
    description:
      'Hand block-printed indigo cotton, fitted at the waist and flaring to the knee. This page shows how a shop themes the try-on button and listens to its events.',
    colours: [
      {
        id: 'indigo',
        name: 'Indigo',
        hex: '#283d8f',
        palette: { base: '#283d8f', trim: '#f5f2ea', second: '#1b2a66' },
      },
      { id: 'chalk', name: 'Chalk', hex: '#f5f2ea', palette: { base: '#f5f2ea', trim: '#283d8f', second: '#d9d3c3' } },
    ],
    drawing: { kind: 'dress' },
    image: 'garments/dress-aline-indigo.png',
    offers: ['Try-on', 'Themed'],
    showcase: { accent: '#283d8f', label: 'See it on you' },
  },
  {
    id: 'sherwani-ivory',
    name: 'Ivory Brocade Sherwani',
    price: 28000,
    style: 'Sherwani with churidar',
    description:
      'Ivory brocade to the knee, a stand collar and gold buttons, over a slim churidar. Try it on, then watch a short twirl video of yourself wearing it.',
    colours: [
      { id: 'ivory', name: 'Ivory', hex: '#efe6cf', palette: { base: '#efe6cf', trim: '#b8902f', second: '#d9cfb4' } },
      { id: 'gold', name: 'Gold', hex: '#b8902f', palette: { base: '#b8902f', trim: '#efe6cf', second: '#9a7624' } },
    ],
    drawing: { kind: 'sherwani' },
    image: 'garments/sherwani-ivory.png',
    offers: ['Try-on', 'Video'],
  },
  {
    id: 'bandhgala-midnight',
    name: 'Midnight Bandhgala',
    price: 14500,
    style: 'Jodhpuri bandhgala',
    description: 'A midnight-blue wool bandhgala with a closed neck and brass buttons, cut close for evenings.',
    colours: [
      {
        id: 'midnight',
        name: 'Midnight',
        hex: '#1c2541',
        palette: { base: '#1c2541', trim: '#c5a059', second: '#2d3a60' },
      },
      { id: 'brass', name: 'Brass', hex: '#c5a059', palette: { base: '#c5a059', trim: '#1c2541', second: '#a8874a' } },
    ],
    drawing: { kind: 'bandhgala' },
    image: 'garments/bandhgala-midnight.png',
    offers: ['Try-on'],
  },
  {
    id: 'suit-charcoal',
    name: 'Charcoal Two-Piece Suit',
    price: 19900,
    style: 'Notch lapel · wool blend',
    description: 'A charcoal wool-blend suit with notch lapels, a white shirt and a wine tie.',
    colours: [
      {
        id: 'charcoal',
        name: 'Charcoal',
        hex: '#3a3d42',
        palette: { base: '#3a3d42', trim: '#7b1e3a', second: '#f4f4f2' },
      },
      { id: 'wine', name: 'Wine', hex: '#7b1e3a', palette: { base: '#7b1e3a', trim: '#3a3d42', second: '#f4f4f2' } },
    ],
    drawing: { kind: 'suit' },
    image: 'garments/suit-charcoal.png',
    offers: ['Try-on'],
  },
  // The pieces that complete a look: each on its own page, and offered on its base product's result.
  {
    id: 'dupatta-gota',
    name: 'Rose Gota Patti Dupatta',
    price: 6800,
    style: 'Completes the Emerald Bridal Lehenga',
    description:
      'A sheer rose georgette dupatta edged with gold gota patti and tasselled ends, worn over one shoulder. Try it over your lehenga try-on.',
    colours: [
      { id: 'rose', name: 'Rose', hex: '#d0467a', palette: { base: '#d0467a', trim: '#d4a437', second: '#f2c1d4' } },
      {
        id: 'saffron',
        name: 'Saffron',
        hex: '#e8891c',
        palette: { base: '#e8891c', trim: '#8a1538', second: '#f6c98a' },
      },
    ],
    drawing: { kind: 'dupatta' },
    image: 'garments/dupatta-gota.png',
    offers: ['Try-on', 'Completes a look'],
  },
  {
    id: 'stole-zari',
    name: 'Maroon Zari Stole',
    price: 4200,
    style: 'Completes the Ivory Brocade Sherwani',
    description: 'A maroon silk stole with a woven zari border, worn around the neck over a sherwani.',
    colours: [
      {
        id: 'maroon',
        name: 'Maroon',
        hex: '#7a1f2b',
        palette: { base: '#7a1f2b', trim: '#d4a437', second: '#b08d3a' },
      },
      {
        id: 'peacock',
        name: 'Peacock',
        hex: '#0f6e78',
        palette: { base: '#0f6e78', trim: '#d4a437', second: '#0a4c53' },
      },
    ],
    drawing: { kind: 'stole' },
    image: 'garments/stole-zari.png',
    offers: ['Try-on', 'Completes a look'],
  },
  {
    id: 'jacket-cropped-mustard',
    name: 'Mustard Cropped Jacket',
    price: 3900,
    style: 'Completes the Indigo A-line Dress',
    description: 'A cropped cotton-twill jacket in mustard, open at the front, to wear over the A-line dress.',
    colours: [
      {
        id: 'mustard',
        name: 'Mustard',
        hex: '#d39b1f',
        palette: { base: '#d39b1f', trim: '#6b4a0e', second: '#f1dca2' },
      },
      { id: 'olive', name: 'Olive', hex: '#5f6b2a', palette: { base: '#5f6b2a', trim: '#2f3613', second: '#b9c08a' } },
    ],
    drawing: { kind: 'jacket' },
    image: 'garments/jacket-cropped-mustard.png',
    offers: ['Try-on', 'Completes a look'],
  },
];

/** The shop picture of one colour: the product's own for the first, `…--<colour>.png` beside it for the others. */
export function colourImage(product: Product, colour: Colour): string {
  if (colour.id === product.colours[0].id) return product.image;
  return product.image.replace(/(\.\w+)$/, `--${colour.id}$1`);
}

/** The colour a page shows: the one asked for (`?variant=`), else the product's own. */
export function colourOf(product: Product, variant: string | undefined): Colour {
  return product.colours.find((colour) => colour.id === variant) ?? product.colours[0];
}

export function findProduct(id: string): Product | undefined {
  return products.find((product) => product.id === id);
}

export function formatPrice(rupees: number): string {
  return `₹${rupees.toLocaleString('en-IN')}`;
}
