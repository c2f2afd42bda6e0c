// A TCP proxy in front of the api that a test can cut: `cut()` destroys every open connection
// and refuses new ones (closing them at once) until `restore()`. The browser sees its websocket
// drop as on a network loss.
import { connect, createServer } from 'node:net'

export async function startProxy(target) {
  const open = new Set()
  let blocked = false
  const server = createServer((client) => {
    if (blocked) {
      client.destroy()
      return
    }
    const upstream = connect(target.port, target.host)
    open.add(client)
    open.add(upstream)
    const drop = () => {
      client.destroy()
      upstream.destroy()
      open.delete(client)
      open.delete(upstream)
    }
    client.on('error', drop).on('close', drop)
    upstream.on('error', drop).on('close', drop)
    client.pipe(upstream)
    upstream.pipe(client)
  })
  await new Promise((ready) => server.listen(0, '127.0.0.1', ready))
  const { port } = server.address()
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    cut() {
      blocked = true
      for (const socket of open) socket.destroy()
      open.clear()
    },
    restore() {
      blocked = false
    },
    close() {
      for (const socket of open) socket.destroy()
      return new Promise((done) => server.close(done))
    },
  }
}
