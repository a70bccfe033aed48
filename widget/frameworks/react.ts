// A React component for <tryon-button>, made by @lit/react: properties set as properties, events as
// `onTryonOpen`-style props. For React 18 and 19; React 19 can also use the element directly in
// JSX with the types of `tryon-button/jsx`. Importing this module registers the element, hence
// 'use client': in Next.js's App Router it is a client component.
'use client';

import * as React from 'react';
import { createComponent } from '@lit/react';
import type { EventName } from '@lit/react';
import { TryonButton as TryonButtonElement } from '../tryon-button.js';
import type { TryonEventMap } from '../core/events.js';

export const TryonButton = createComponent({
  react: React,
  tagName: 'tryon-button',
  elementClass: TryonButtonElement,
  displayName: 'TryonButton',
  events: {
    onTryonOpen: 'tryon-open' as EventName<TryonEventMap['tryon-open']>,
    onTryonClose: 'tryon-close' as EventName<TryonEventMap['tryon-close']>,
    onTryonSubmit: 'tryon-submit' as EventName<TryonEventMap['tryon-submit']>,
    onTryonProgress: 'tryon-progress' as EventName<TryonEventMap['tryon-progress']>,
    onTryonResult: 'tryon-result' as EventName<TryonEventMap['tryon-result']>,
    onTryonError: 'tryon-error' as EventName<TryonEventMap['tryon-error']>,
  },
});

/** The props of the React component. */
export type TryonButtonProps = React.ComponentProps<typeof TryonButton>;
