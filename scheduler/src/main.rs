use domain::env::Env;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let config = scheduler::Config::from_env(&Env::from_os())?;
    domain::telemetry::init(&config.telemetry);
    scheduler::run(config, domain::shutdown_signal()).await
}
