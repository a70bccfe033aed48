// What the shop shows about each product. The proxy's catalog.json stays in the proxy's own format
// (DESIGN part 4), so names, prices and colours live here instead.

export type GarmentDrawing =
  | { kind: 'saree'; drape: 'nivi' | 'bengali' | 'gujarati' | 'maharashtrian' }
  | { kind: 'lehenga' }
  | { kind: 'dress' }
  | { kind: 'sherwani' }
  | { kind: 'bandhgala' }
  | { kind: 'suit' };

export interface Palette {
  /** main cloth */
  base: string;
  /** borders, zari, buttons */
  trim: string;
  /** blouse, lining, shirt or dupatta */
  second: string;
}

export interface Colour { name: string; hex: string }

export interface Product {
  id: string;
  name: string;
  /** price in rupees */
  price: number;
  description: string;
  /** one line under the name, e.g. the drape style */
  style: string;
  colours: Colour[];
  drawing: GarmentDrawing;
  palette: Palette;
  /** shop image path under /images/ (the garment, or the model wearing it) */
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
    colours: [{ name: 'Ruby', hex: '#9b1b30' }, { name: 'Zari gold', hex: '#d4a437' }],
    drawing: { kind: 'saree', drape: 'nivi' },
    palette: { base: '#9b1b30', trim: '#d4a437', second: '#6d1022' },
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
    colours: [{ name: 'Ivory', hex: '#f4ecd8' }, { name: 'Sindoor red', hex: '#c0392b' }],
    drawing: { kind: 'saree', drape: 'bengali' },
    palette: { base: '#f4ecd8', trim: '#c0392b', second: '#b03024' },
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
    colours: [{ name: 'Marigold', hex: '#f2a900' }, { name: 'Leaf green', hex: '#2e7d32' }],
    drawing: { kind: 'saree', drape: 'gujarati' },
    palette: { base: '#f2a900', trim: '#2e7d32', second: '#c62828' },
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
    colours: [{ name: 'Peacock green', hex: '#0f6e5f' }, { name: 'Magenta', hex: '#b0246a' }],
    drawing: { kind: 'saree', drape: 'maharashtrian' },
    palette: { base: '#0f6e5f', trim: '#b0246a', second: '#7a1749' },
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
    colours: [{ name: 'Emerald', hex: '#0b6b3a' }, { name: 'Antique gold', hex: '#c9a227' }],
    drawing: { kind: 'lehenga' },
    palette: { base: '#0b6b3a', trim: '#c9a227', second: '#e8b4c8' },
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
    colours: [{ name: 'Indigo', hex: '#283d8f' }, { name: 'Chalk', hex: '#f5f2ea' }],
    drawing: { kind: 'dress' },
    palette: { base: '#283d8f', trim: '#f5f2ea', second: '#1b2a66' },
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
    colours: [{ name: 'Ivory', hex: '#efe6cf' }, { name: 'Gold', hex: '#b8902f' }],
    drawing: { kind: 'sherwani' },
    palette: { base: '#efe6cf', trim: '#b8902f', second: '#d9cfb4' },
    image: 'garments/sherwani-ivory.png',
    offers: ['Try-on', 'Video'],
  },
  {
    id: 'bandhgala-midnight',
    name: 'Midnight Bandhgala',
    price: 14500,
    style: 'Jodhpuri bandhgala',
    description:
      'A midnight-blue wool bandhgala with a closed neck and brass buttons, cut close for evenings.',
    colours: [{ name: 'Midnight', hex: '#1c2541' }, { name: 'Brass', hex: '#c5a059' }],
    drawing: { kind: 'bandhgala' },
    palette: { base: '#1c2541', trim: '#c5a059', second: '#2d3a60' },
    image: 'garments/bandhgala-midnight.png',
    offers: ['Try-on'],
  },
  {
    id: 'suit-charcoal',
    name: 'Charcoal Two-Piece Suit',
    price: 19900,
    style: 'Notch lapel · wool blend',
    description: 'A charcoal wool-blend suit with notch lapels, a white shirt and a wine tie.',
    colours: [{ name: 'Charcoal', hex: '#3a3d42' }, { name: 'Wine', hex: '#7b1e3a' }],
    drawing: { kind: 'suit' },
    palette: { base: '#3a3d42', trim: '#7b1e3a', second: '#f4f4f2' },
    image: 'garments/suit-charcoal.png',
    offers: ['Try-on'],
  },
];

export function findProduct(id: string): Product | undefined {
  return products.find((product) => product.id === id);
}

export function formatPrice(rupees: number): string {
  return `₹${rupees.toLocaleString('en-IN')}`;
}
