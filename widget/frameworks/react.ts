// A React component for <tryon-button>, made by @lit/react: properties set as properties, events as
// `onTryonOpen`-style props. For React 18 and 19; React 19 can also use the element directly in
// JSX with the types of `tryon-button/jsx`. Importing this module registers the element, hence
// 'use client': in Next.js's App Router it is a client component.
'use client';

import * as React from 'react';
import { createComponent } from '@lit/react';
import { TryonButton as TryonButtonElement } from '../tryon-button.js';
import type { TryonEventName } from '../core/events.js';
import { reactEvents } from './react-events.js';

export const TryonButton = createComponent({
  react: React,
  tagName: 'tryon-button',
  elementClass: TryonButtonElement,
  displayName: 'TryonButton',
  // Generated from the element's `@event` tags (scripts/editor-data.ts).
  events: reactEvents,
});

/** The props of the React component. */
export type TryonButtonProps = React.ComponentProps<typeof TryonButton>;

// Every event of the element has its prop: the generated list is checked against the event map here.
type Pascal<S extends string> = S extends `${infer Head}-${infer Rest}`
  ? `${Capitalize<Head>}${Pascal<Rest>}`
  : Capitalize<S>;
type Missing = Exclude<`on${Pascal<TryonEventName>}`, keyof typeof reactEvents>;
const everyEvent: [Missing] extends [never] ? true : Missing = true;
void everyEvent;
