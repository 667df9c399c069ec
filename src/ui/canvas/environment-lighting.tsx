import { Environment } from '@react-three/drei';
import { Component, use, type ReactNode } from 'react';
import { environmentFile } from './environments';

/** Image-based lighting from a preset (served by the app) or a file location. */
export function EnvironmentLighting({ environment }: { environment: string }) {
  return (
    <LightingBoundary environment={environment}>
      <PresetOrFile environment={environment} />
    </LightingBoundary>
  );
}

function PresetOrFile({ environment }: { environment: string }) {
  return <Environment files={use(environmentFile(environment))} />;
}

/** A broken environment file leaves the avatar lit by the ambient light only, never blank. */
class LightingBoundary extends Component<
  { environment: string; children: ReactNode },
  { failed: string | null }
> {
  state = { failed: null as string | null };
  static getDerivedStateFromError() {
    return { failed: 'yes' };
  }
  componentDidCatch(error: unknown) {
    console.warn(`Environment "${this.props.environment}" could not be loaded`, error);
  }
  componentDidUpdate(previous: { environment: string }) {
    if (previous.environment !== this.props.environment && this.state.failed) {
      this.setState({ failed: null });
    }
  }
  render() {
    return this.state.failed ? null : this.props.children;
  }
}
