/** A path segment of a console address, encoded (a flag's name may hold dots, slashes or spaces). */
export const segment = (value: string) => encodeURIComponent(value);

/** The console's addresses, as Unleash's UI has them. */
export const projectPage = (project: string) => `/projects/${segment(project)}`;
export const flagPage = (project: string, name: string) => `${projectPage(project)}/features/${segment(name)}`;
