import { hardenPrototypes } from '@bunting/platform/prototype-safety';

// Every test worker runs with the prototypes as a Bunting process has them, so what works here works there.
hardenPrototypes();
