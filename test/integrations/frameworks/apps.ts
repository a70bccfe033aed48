// The tiny shop apps the framework tests build: one per framework, each using <tryon-button> the way
// docs/integrations/frameworks.md says, plus the mistakes its type-checker must refuse. Every app
// shows what its handlers received in an <output>, so the test sees the event reach the framework.

/** The product every app shows, and the label each sets through the `strings` property. */
export const PRODUCT = 'saree-banarasi-red';
export const LABEL = 'Try the saree on';

export interface App {
  /** Files of the app that type-checks and runs. */
  files: Record<string, string>;
  /** Files that must each fail the type-check, with the diagnostic expected for each. */
  mistakes: Record<string, { source: string; diagnostic: RegExp }>;
}

const reactApp = `
import { useState } from 'react';
import type { TryonAddToCartDetail, TryonOpenDetail } from 'tryon-button';
import { TryonButton } from 'tryon-button/react';

export function App({ product }: { product: string }) {
  const [opened, setOpened] = useState('');
  const [closed, setClosed] = useState('');
  const [wrapperOpened, setWrapperOpened] = useState('');
  const [wrapperAdded, setWrapperAdded] = useState('');
  return (
    <main>
      <tryon-button id="direct" product={product} endpoint="/tryon" privacy-url="/privacy" variant="sindoor-red" analytics="dataLayer"
        strings={{ label: '${LABEL}' }}
        ontryon-open={(event) => setOpened(event.detail.product)}
        ontryon-close={(event: CustomEvent<{ product: string; status: string }>) => setClosed(event.detail.status)} />
      <output id="opened">{opened}</output>
      <output id="closed">{closed}</output>
      <TryonButton id="wrapped" product={product} endpoint="/tryon" video
        onTryonOpen={(event: CustomEvent<TryonOpenDetail>) => setWrapperOpened(event.detail.product)}
        onTryonAddToCart={(event: CustomEvent<TryonAddToCartDetail>) => setWrapperAdded(event.detail.cart)} />
      <output id="wrapper-opened">{wrapperOpened}</output>
      <output id="wrapper-added">{wrapperAdded}</output>
    </main>
  );
}
`;

const reactMain = `
import { createRoot } from 'react-dom/client';
import { App } from './App.js';

createRoot(document.getElementById('app')!).render(<App product="${PRODUCT}" />);
`;

/** Brings the JSX types of <tryon-button> into the program, as the docs say. */
const reactTypes = `import type {} from 'tryon-button/jsx';\n`;

export const react: App = {
  files: { 'src/App.tsx': reactApp, 'src/main.tsx': reactMain, 'src/tryon-button.d.ts': reactTypes },
  mistakes: {
    'src/misspelt-attribute.tsx': {
      source: `export const Misspelt = () => <tryon-button prodcut="${PRODUCT}" />;\n`,
      diagnostic: /Property 'prodcut' does not exist on type/,
    },
    'src/wrong-event.tsx': {
      source: `export const Wrong = () => <tryon-button product="x" ontryon-open={(event: MouseEvent) => event.clientX} />;\n`,
      diagnostic: /'CustomEvent<TryonOpenDetail>' is missing the following properties from type 'MouseEvent'/,
    },
    'src/wrong-wrapper-event.tsx': {
      source:
        `import { TryonButton } from 'tryon-button/react';\nimport type { TryonResultDetail } from 'tryon-button';\n` +
        `export const Wrong = () => <TryonButton product="x" onTryonOpen={(event: CustomEvent<TryonResultDetail>) => event.detail.outputs} />;\n`,
      diagnostic:
        /Property 'tryon' is missing in type 'TryonOpenDetail'|'TryonOpenDetail' is missing the following properties/,
    },
  },
};

const vueApp = `
<script setup lang="ts">
import { ref } from 'vue';
import type { TryonCloseDetail } from 'tryon-button';

const props = defineProps<{ product: string }>();
const opened = ref('');
const closed = ref('');
function onClose(event: CustomEvent<TryonCloseDetail>) {
  closed.value = event.detail.status;
}
</script>

<template>
  <tryon-button id="direct" :product="props.product" endpoint="/tryon" privacy-url="/privacy" variant="sindoor-red" analytics="dataLayer"
    :strings="{ label: '${LABEL}' }"
    @tryon-open="(event) => (opened = event.detail.product)" @tryon-close="onClose" />
  <output id="opened">{{ opened }}</output>
  <output id="closed">{{ closed }}</output>
</template>
`;

const vueMain = `
import { createApp } from 'vue';
import 'tryon-button';
import App from './App.vue';

createApp(App, { product: '${PRODUCT}' }).mount('#app');
`;

const vueTypes = `import type {} from 'tryon-button/vue';\n`;

export const vue: App = {
  files: { 'src/App.vue': vueApp, 'src/main.ts': vueMain, 'src/env.d.ts': vueTypes },
  mistakes: {
    'src/MisspeltAttribute.vue': {
      source: `<script setup lang="ts"></script>\n<template>\n  <tryon-button prodcut="${PRODUCT}" />\n</template>\n`,
      diagnostic: /'prodcut' does not exist in type/,
    },
    'src/WrongEvent.vue': {
      source: `<script setup lang="ts">\nfunction onOpen(event: MouseEvent) { return event.clientX; }\n</script>\n<template>\n  <tryon-button product="x" @tryon-open="onOpen" />\n</template>\n`,
      diagnostic: /'CustomEvent<TryonOpenDetail>' is missing the following properties from type 'MouseEvent'/,
    },
  },
};

const svelteApp = `
<script lang="ts">
  import type { TryonCloseDetail } from 'tryon-button';

  let { product }: { product: string } = $props();
  let opened = $state('');
  let closed = $state('');
  function onClose(event: CustomEvent<TryonCloseDetail>) {
    closed = event.detail.status;
  }
</script>

<tryon-button id="direct" {product} endpoint="/tryon" privacy-url="/privacy" variant="sindoor-red" analytics="dataLayer"
  strings={{ label: '${LABEL}' }}
  ontryon-open={(event) => (opened = event.detail.product)} ontryon-close={onClose}></tryon-button>
<output id="opened">{opened}</output>
<output id="closed">{closed}</output>
`;

const svelteMain = `
import { mount } from 'svelte';
import 'tryon-button';
import App from './App.svelte';

mount(App, { target: document.getElementById('app')!, props: { product: '${PRODUCT}' } });
`;

const svelteTypes = `import type {} from 'tryon-button/svelte';\n`;

export const svelte: App = {
  files: { 'src/App.svelte': svelteApp, 'src/main.ts': svelteMain, 'src/app.d.ts': svelteTypes },
  mistakes: {
    'src/MisspeltAttribute.svelte': {
      // TypeScript checks only the markup of components whose script is TypeScript.
      source: `<script lang="ts"></script>\n<tryon-button prodcut="${PRODUCT}"></tryon-button>\n`,
      diagnostic: /'"prodcut"' does not exist in type/,
    },
    'src/WrongEvent.svelte': {
      source: `<script lang="ts">\n  function onOpen(event: MouseEvent) { return event.clientX; }\n</script>\n<tryon-button product="x" ontryon-open={onOpen}></tryon-button>\n`,
      diagnostic: /'CustomEvent<TryonOpenDetail>' is missing the following properties from type 'MouseEvent'/,
    },
  },
};
