// mimalloc, not the system's malloc: glibc's malloc and free were a fifth of the worker's CPU in a
// drain of no-op jobs (docs/benchmarks.md, "Background jobs"). Every binary and the benchmarks
// that run the worker in their process use it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use domain::env::Env;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let config = worker::Config::from_env(&Env::from_os())?;
    domain::telemetry::init(&config.telemetry);
    worker::run(config, domain::shutdown_signal()).await
}
